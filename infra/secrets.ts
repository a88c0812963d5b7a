// Where KEB is and who the auditor is, and the secrets kept in AWS Secrets Manager.

import { AUDIT_MANAGED_SECRETS } from "../functions/lib/secrets.ts";
import type { StageSettings } from "./stage-schema.ts";

/**
 * A secret kept in AWS Secrets Manager, which ReadOnlyAccess does not let anyone read: the stack
 * creates it without a value and never writes one, so a value set or rotated there
 * (docs/deploy.md#secrets) stays, and functions pick it up within 5 minutes, without a redeploy. Each function
 * that reads it is granted GetSecretValue on it alone (`readSecret`), its ARN in `<VARIABLE>_ARN`.
 */
export function managedSecret(
  name: string,
  description: string,
  protectedStage: boolean,
): aws.secretsmanager.Secret {
  return new aws.secretsmanager.Secret(name, {
    name: `fleet-auditor/${$app.stage}/${name}`,
    description: `fleet-auditor ${$app.stage}: ${description}`,
    // Removed with a non-protected stage at once, so that the stage can be deployed again.
    recoveryWindowInDays: protectedStage ? 30 : 0,
  });
}

/** The grant that lets a function read one secret, and no other. */
export function readSecret(secret: aws.secretsmanager.Secret) {
  return { actions: ["secretsmanager:GetSecretValue"], resources: [secret.arn] };
}

/** The variables whose values the audit function may read from Secrets Manager. */
type KebManagedVariable = keyof typeof AUDIT_MANAGED_SECRETS;

/** What the audit function needs of KEB: the linked settings and the secrets in Secrets Manager. */
export interface KebSecrets {
  /** KebUrl, KebTokenUrl and KebClientId (and KebUsername with the password grant), to link. */
  link: sst.Secret[];
  /** Each secret by the variable it stands for; the function gets its ARN in `<variable>_ARN`. */
  managed: Partial<Record<KebManagedVariable, aws.secretsmanager.Secret>>;
}

/**
 * The KEB settings and secrets, as the stage's `keb` says: the client credentials grant (the
 * client secret in Secrets Manager) or the password grant (the user linked, the password in
 * Secrets Manager), and an https proxy whose URL carries credentials, in Secrets Manager too.
 * `npx sst secret set KebUrl … --stage NAME`: linked, SST puts the values, encrypted, into the
 * function bundle with the key beside it in SST_KEY, which anyone who may read the function
 * (lambda:GetFunction, in ReadOnlyAccess) can decrypt. So the linked ones hold nothing secret.
 */
export function kebSecrets(protectedStage: boolean, keb: StageSettings["keb"] = {}): KebSecrets {
  const names = ["KebUrl", "KebTokenUrl", "KebClientId"];
  const managed: KebSecrets["managed"] = {};
  const secret = (variable: KebManagedVariable, description: string): aws.secretsmanager.Secret => {
    const made = managedSecret(AUDIT_MANAGED_SECRETS[variable], description, protectedStage);
    managed[variable] = made;
    return made;
  };
  if (keb.grant === "password") {
    names.push("KebUsername");
    secret("KEB_PASSWORD", "the password of the KEB technical user (password grant)");
  } else {
    const clientSecret = secret("KEB_CLIENT_SECRET", "the KEB OAuth2 client secret");
    // Where it is (not what it is), for `sst shell -- npx fleet-auditor run` (KEB_CLIENT_SECRET_ARN).
    new sst.Linkable("KebClientSecretArn", { properties: { arn: clientSecret.arn } });
  }
  if (keb.proxySecret)
    secret("HTTPS_PROXY", "the https proxy's URL with its user:password@, on the way to KEB");
  return { link: names.map((name) => new sst.Secret(name)), managed };
}
