// The KEB audits' definitions alone (pure: no KEB client, no use cases), for a process that
// only validates or renders them: the Slack function, the infrastructure's stage settings.
export { KEB_AUDITS } from "./keb-audits.ts";
