// The AWS regions a stage may name, and those AWS Chatbot's API runs in. Pure data.

/**
 * The regions of the Pulumi AWS provider SST 4.17.1 deploys with (`@pulumi/aws` 7.20.0, its
 * `Region` enum): a name shaped like a region that is not one (`eu-centrall-1`) fails the deploy
 * in `stages.json`'s check, not halfway through it. A region AWS opens later needs a line here.
 */
export const AWS_REGIONS = [
  "af-south-1",
  "ap-east-1",
  "ap-east-2",
  "ap-northeast-1",
  "ap-northeast-2",
  "ap-northeast-3",
  "ap-south-1",
  "ap-south-2",
  "ap-southeast-1",
  "ap-southeast-2",
  "ap-southeast-3",
  "ap-southeast-4",
  "ap-southeast-5",
  "ap-southeast-7",
  "ca-central-1",
  "ca-west-1",
  "cn-north-1",
  "cn-northwest-1",
  "eu-central-1",
  "eu-central-2",
  "eu-north-1",
  "eu-south-1",
  "eu-south-2",
  "eu-west-1",
  "eu-west-2",
  "eu-west-3",
  "il-central-1",
  "me-central-1",
  "me-south-1",
  "mx-central-1",
  "sa-east-1",
  "us-east-1",
  "us-east-2",
  "us-gov-east-1",
  "us-gov-west-1",
  "us-west-1",
  "us-west-2",
] as const;

/**
 * The regions AWS Chatbot's API (and so its Slack channel configurations) exists in. The channel
 * may follow topics in any region; the configuration itself must be made in one of these.
 */
export const CHATBOT_REGIONS = ["us-east-2", "us-west-2", "ap-southeast-1", "eu-west-1"] as const;

/** Where a stage's Chatbot configuration is made when `chatbot.region` is not given. */
export const DEFAULT_CHATBOT_REGION = "eu-west-1";
