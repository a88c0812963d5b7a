// List prices (USD, on-demand, no free tier, no Savings Plans) of what a stage uses, for
// `npm run bench -- cost`. One table per region; the bench prints the region and `asOf`.
//
// Sources: the AWS pricing pages of each service (aws.amazon.com/<service>/pricing), whose
// regional figures are rendered by a script; the us-east-1 figures below were confirmed from
// stored copies of those pages and of AWS's own docs (DynamoDB on-demand $0.625 / $0.125 per
// million since the November 2024 cut; CloudWatch custom metrics $0.30, logs ingestion $0.50).
// The eu-central-1 (Frankfurt) figures are those of the AWS Price List as known on `asOf`; they
// could not be confirmed from a stored copy here: each is marked `confirmed: false`, and the
// bench prints that. Check them against the AWS Pricing Calculator before relying on a line.

/** One price: dollars per `unit` (plural: "write request units"; printed per million when small). */
export interface Price {
  usd: number;
  unit: string;
  /** Read from a stored copy of AWS's page for this region (false: from the price list as known). */
  confirmed: boolean;
}

/** The prices the cost bench uses. */
export interface PriceTable {
  region: string;
  /** The date the figures are from. */
  asOf: string;
  source: string;
  dynamoWriteUnit: Price;
  dynamoReadUnit: Price;
  dynamoStorageGbMonth: Price;
  snsPublish: Price;
  snsEmail: Price;
  snsHttps: Price;
  sqsRequest: Price;
  lambdaRequest: Price;
  lambdaArmGbSecond: Price;
  cloudwatchMetric: Price;
  cloudwatchAlarm: Price;
  logsIngestGb: Price;
  logsStorageGbMonth: Price;
  secret: Price;
  secretsApiCall: Price;
  schedulerInvocation: Price;
}

const per = (usd: number, unit: string, confirmed: boolean): Price => ({ usd, unit, confirmed });
const MILLION = 1_000_000;

const EU_CENTRAL_1: PriceTable = {
  region: "eu-central-1",
  asOf: "2026-09",
  source: "AWS Price List (aws.amazon.com/<service>/pricing), eu-central-1; not confirmed from a stored copy",
  dynamoWriteUnit: per(0.7625 / MILLION, "write request units", false),
  dynamoReadUnit: per(0.1525 / MILLION, "read request units", false),
  dynamoStorageGbMonth: per(0.306, "GB-month", false),
  snsPublish: per(0.5 / MILLION, "publishes (64 KB chunks)", false),
  snsEmail: per(2 / 100_000, "e-mail deliveries", false),
  snsHttps: per(0.6 / MILLION, "HTTP/S deliveries", false),
  sqsRequest: per(0.4 / MILLION, "requests (64 KB chunks)", false),
  lambdaRequest: per(0.2 / MILLION, "invocations", false),
  lambdaArmGbSecond: per(0.0000133334, "GB-seconds (arm64)", false),
  cloudwatchMetric: per(0.3, "custom metric-month", false),
  cloudwatchAlarm: per(0.1, "standard alarm-month", false),
  logsIngestGb: per(0.63, "GB ingested", false),
  logsStorageGbMonth: per(0.0324, "GB-month archived", false),
  secret: per(0.4, "secret-month", false),
  secretsApiCall: per(0.05 / 10_000, "API calls", false),
  schedulerInvocation: per(1 / MILLION, "scheduled invocations", false),
};

const US_EAST_1: PriceTable = {
  ...EU_CENTRAL_1,
  region: "us-east-1",
  source: "AWS pricing pages, us-east-1 (DynamoDB, CloudWatch confirmed from stored copies)",
  dynamoWriteUnit: per(0.625 / MILLION, "write request units", true),
  dynamoReadUnit: per(0.125 / MILLION, "read request units", true),
  dynamoStorageGbMonth: per(0.25, "GB-month", false),
  cloudwatchMetric: per(0.3, "custom metric-month", true),
  cloudwatchAlarm: per(0.1, "standard alarm-month", true),
  logsIngestGb: per(0.5, "GB ingested", true),
  logsStorageGbMonth: per(0.03, "GB-month archived", true),
};

/** The regions priced here; a stage elsewhere is priced as eu-central-1, saying so. */
export const PRICES: ReadonlyMap<string, PriceTable> = new Map([
  [EU_CENTRAL_1.region, EU_CENTRAL_1],
  [US_EAST_1.region, US_EAST_1],
]);
