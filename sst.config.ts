/// <reference path="./.sst/platform/config.d.ts" />

// Infrastructure of fleet-auditor. The functions, schedules, tables, topic and queue are declared
// as the capabilities that use them land (see README.md, "Deployment").
export default $config({
  app(input) {
    return {
      name: "fleet-auditor",
      // Audit state and status tables must survive a mistaken `sst remove` in production.
      removal: input?.stage === "production" ? "retain" : "remove",
      protect: input?.stage === "production",
      home: "aws",
    };
  },
  async run() {
    // KEB credentials; set with `npx sst secret set KebClientSecret … --stage NAME`.
    const kebUrl = new sst.Secret("KebUrl");
    const kebTokenUrl = new sst.Secret("KebTokenUrl");
    const kebClientId = new sst.Secret("KebClientId");
    const kebClientSecret = new sst.Secret("KebClientSecret");
    return {
      secrets: [kebUrl.name, kebTokenUrl.name, kebClientId.name, kebClientSecret.name].join(", "),
    };
  },
});
