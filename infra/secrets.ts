// Where KEB is and who the auditor is, and the secrets kept in AWS Secrets Manager.

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

/** What the audit function needs of KEB: the linked settings and the client secret. */
export interface KebSecrets {
  /** KebUrl, KebTokenUrl and KebClientId, to link. */
  link: sst.Secret[];
  clientSecret: aws.secretsmanager.Secret;
}

/**
 * The KEB settings and client secret. `npx sst secret set KebUrl … --stage NAME`: linked, SST
 * puts the values, encrypted, into the function bundle with the key beside it in SST_KEY, which
 * anyone who may read the function (lambda:GetFunction, in ReadOnlyAccess) can decrypt. So these
 * three hold nothing secret; the client secret is in Secrets Manager.
 */
export function kebSecrets(protectedStage: boolean): KebSecrets {
  const link = [new sst.Secret("KebUrl"), new sst.Secret("KebTokenUrl"), new sst.Secret("KebClientId")];
  const clientSecret = managedSecret("KebClientSecret", "the KEB OAuth2 client secret", protectedStage);
  // Where it is (not what it is), for `sst shell -- npx fleet-auditor run` (KEB_CLIENT_SECRET_ARN).
  new sst.Linkable("KebClientSecretArn", { properties: { arn: clientSecret.arn } });
  return { link, clientSecret };
}
