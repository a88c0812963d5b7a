/** KEB's service: every runtime has this class (`internal/broker/broker.go`). */
export const SERVICE_CLASS = { id: "47c9dcbf-ff30-448e-ab36-d3bad66ba281", name: "kymaruntime" } as const;

/** A plan as KEB knows it, with the provider its runtimes land on and a share of a realistic fleet. */
export interface Plan {
  name: string;
  id: string;
  provider: string;
  regions: readonly string[];
  weight: number;
  /** Trial and free runtimes are the only ones KEB expires. */
  expirable: boolean;
}

const AWS_REGIONS = [
  "eu-central-1",
  "eu-west-2",
  "ca-central-1",
  "sa-east-1",
  "us-east-1",
  "us-west-2",
  "ap-northeast-1",
  "ap-south-1",
  "ap-southeast-1",
  "ap-southeast-2",
];
const AZURE_REGIONS = [
  "eastus",
  "centralus",
  "westus2",
  "uksouth",
  "northeurope",
  "westeurope",
  "japaneast",
  "southeastasia",
  "australiaeast",
  "switzerlandnorth",
];
const GCP_REGIONS = [
  "europe-west3",
  "asia-south1",
  "us-central1",
  "me-central2",
  "asia-northeast1",
  "us-east4",
  "europe-west4",
];
const SCC_REGIONS = ["eu-de-1", "eu-de-2", "ap-au-1", "na-us-1", "ap-jp-1"];
const ALI_REGIONS = ["ap-southeast-1", "eu-central-1"];

/** Plans from `internal/broker/plans.go`, weighted roughly like a production landscape. */
export const PLANS: readonly Plan[] = [
  {
    name: "azure",
    id: "4deee563-e5ec-4731-b9b1-53b42d855f0c",
    provider: "Azure",
    regions: AZURE_REGIONS,
    weight: 24,
    expirable: false,
  },
  {
    name: "aws",
    id: "361c511f-f939-4621-b228-d0fb79a1fe15",
    provider: "AWS",
    regions: AWS_REGIONS,
    weight: 24,
    expirable: false,
  },
  {
    name: "gcp",
    id: "ca6e5357-707f-4565-bbbd-b3ab732597c6",
    provider: "GCP",
    regions: GCP_REGIONS,
    weight: 9,
    expirable: false,
  },
  {
    name: "azure_lite",
    id: "8cb22518-aa26-44c5-91a0-e669ec9bf443",
    provider: "Azure",
    regions: AZURE_REGIONS,
    weight: 4,
    expirable: false,
  },
  {
    name: "trial",
    id: "7d55d31d-35ae-4438-bf13-6ffdfa107d9f",
    provider: "AWS",
    regions: ["eu-central-1", "us-east-1", "ap-southeast-1"],
    weight: 20,
    expirable: true,
  },
  {
    name: "free",
    id: "b1a5764e-2ea1-4f95-94c0-2b4538b37b55",
    provider: "AWS",
    regions: ["eu-central-1", "us-east-1"],
    weight: 7,
    expirable: true,
  },
  {
    name: "sap-converged-cloud",
    id: "03b812ac-c991-4528-b5bd-08b303523a63",
    provider: "SapConvergedCloud",
    regions: SCC_REGIONS,
    weight: 4,
    expirable: false,
  },
  {
    name: "build-runtime-aws",
    id: "6aae0ff3-89f7-4f12-86de-51466145422e",
    provider: "AWS",
    regions: AWS_REGIONS,
    weight: 3,
    expirable: false,
  },
  {
    name: "preview",
    id: "5cb3d976-b85c-42ea-a636-79cadda109a9",
    provider: "AWS",
    regions: AWS_REGIONS,
    weight: 2,
    expirable: false,
  },
  {
    name: "alicloud",
    id: "9f2c3b4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d",
    provider: "Alicloud",
    regions: ALI_REGIONS,
    weight: 2,
    expirable: false,
  },
  {
    name: "gdch",
    id: "024e11fb-40df-4753-a992-24d136e2d15c",
    provider: "GDCH",
    regions: ["us-west16"],
    weight: 1,
    expirable: false,
  },
];

/** BTP subaccount regions seen in data; `cf-eu11` and `cf-ch20` are the EU-access ones. */
export const SUBACCOUNT_REGIONS = [
  "cf-eu10",
  "cf-eu10",
  "cf-eu10",
  "cf-us10",
  "cf-us10",
  "cf-ap21",
  "cf-eu11",
  "cf-eu20",
  "cf-ch20",
  "cf-eu12",
];

/** Current provisioning step names (`finishedStages`). */
export const PROVISIONING_STAGES = [
  "Starting",
  "Init_Kyma_Template",
  "Override_Kyma_Modules",
  "Resolve_Credentials_Binding",
  "Discover_Available_Zones_CredentialsBinding",
  "Generate_Runtime_ID",
  "Create_Resource_Names",
  "Create_Runtime_Resource",
  "Check_RuntimeResource_Provisioning",
  "Inject_BTP_Operator_Credentials",
  "Apply_Kyma",
];

/** Deprovisioning step names. */
export const DEPROVISIONING_STAGES = [
  "Initialisation",
  "BTPOperator_Cleanup",
  "EDP_Deregistration",
  "Delete_Kyma_Resource",
  "Check_Kyma_Resource_Deleted",
  "Delete_Runtime_Resource",
  "Check_RuntimeResource_Deletion",
  "Free_Credentials_Binding_Step",
  "Archiving",
  "Remove_Instance",
  "Clean",
];

/** Error causes KEB records on failed operations (`internal/error`). */
export const FAILURES = [
  {
    reason: "err_keb_timeout",
    component: "keb",
    step: "Check_RuntimeResource_Provisioning",
    message: "operation has reached the time limit: 1h0m0s",
  },
  {
    reason: "err_provisioning",
    component: "infrastructure-manager",
    step: "Check_RuntimeResource_Provisioning",
    message: "Runtime resource in failed state: quota exceeded for machine type",
  },
  {
    reason: "err_keb_internal",
    component: "db - keb",
    step: "Create_Runtime_Resource",
    message: "while creating runtime resource: context deadline exceeded",
  },
  {
    reason: "err_kyma_failed",
    component: "lifecycle-manager",
    step: "Apply_Kyma",
    message: "Kyma resource in Error state: module btp-operator failed",
  },
  {
    reason: "err_deprovisioning",
    component: "infrastructure-manager",
    step: "Check_RuntimeResource_Deletion",
    message: "shoot deletion blocked by finalizers",
  },
] as const;
