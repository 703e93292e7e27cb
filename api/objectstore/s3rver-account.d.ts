// s3rver's account registry (its package has no types): the key ids it accepts.
declare module 's3rver/lib/models/account.js' {
  interface AWSAccount {
    createKeyPair(accessKeyId: string, secretAccessKey: string): void;
  }
  const AWSAccountClass: { DUMMY_ACCOUNT: AWSAccount };
  export default AWSAccountClass;
}
