// Vitest global setup of the `dynamodb-local` project: one DynamoDB Local (a JVM) for all its
// files; each file gets its own database by using its own access key (DynamoDB Local keeps one
// database per access key and region), so files neither share tables nor start a JVM each.
import type { TestProject } from "vitest/node";
import { launchDynamoLocal } from "../helpers/dynamo-local.ts";

declare module "vitest" {
  export interface ProvidedContext {
    dynamoLocalEndpoint: string;
  }
}

/** @public Vitest's `globalSetup` calls it; nothing imports it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const local = await launchDynamoLocal();
  project.provide("dynamoLocalEndpoint", local.endpoint);
  return local.stop;
}
