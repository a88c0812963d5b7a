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

// A JVM that serves a few minutes of tests on 2 cores shared with four test workers: the C1
// compiler alone (C2's work pays back only in a long-lived server) and the serial collector (no
// GC threads contending for the cores). About a quarter less CPU for the store suite on DynamoDB
// Local (measured: 40 s to 28 s for five of its files); what DynamoDB Local answers is the same.
// The benchmarks start theirs without these: their figures are for a server as it runs.
const JVM_FOR_TESTS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

/** @public Vitest's `globalSetup` calls it; nothing imports it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const local = await launchDynamoLocal({ jvm: JVM_FOR_TESTS });
  project.provide("dynamoLocalEndpoint", local.endpoint);
  return local.stop;
}
