import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { Signing } from '../lib/constructs/signing';
import { ConfigError, readConfig } from '../lib/portal-config';
import { STAGES } from '../stages';
import { type Synthesized, synthPortal } from './support/synth';
import { actionsOf, type Json, resourcesOfType, statementsOfFunction } from './support/template';

/** Decision 263: a stage's `signingKeyArn` imports the key devices trust instead of creating one. */
const KEY_ID = '1234abcd-12ab-34cd-56ef-1234567890ab';
const KEY_ARN = `arn:aws:kms:eu-central-1:123456789012:key/${KEY_ID}`;

/** a stage pinned to the key's account and region, importing the key */
const IMPORTING = {
  ...STAGES.dev,
  account: '123456789012',
  region: 'eu-central-1',
  signingKeyArn: KEY_ARN,
  // a stage past its first deploy: the trail (and its key alarm) exists
  deletionProtection: true,
  firstDeployDone: true,
};

/** The dev stage with some settings added, checked as a synth checks it. */
const configWith = (patch: Record<string, unknown>) =>
  readConfig(new App({ context: { allowPlaceholderWeb: 'true' } }).node, {
    dev: { ...STAGES.dev, ...patch },
  });

let s: Synthesized;
beforeAll(() => {
  s = synthPortal({ stage: 'keep' }, { keep: IMPORTING });
});

const resources = (type: string) => resourcesOfType(s, type);

/** The logical id of the generateArtefact worker (the only signer) from its description. */
function signerFunction(): string {
  const found = resources('AWS::Lambda::Function').filter(([, p]) =>
    /^Asynchronous worker generateArtefact\b/.test(String(p.Description ?? '')),
  );
  expect(found).toHaveLength(1);
  return found[0]![0];
}

describe('a stage with signingKeyArn imports the key (decision 263)', () => {
  it('creates no release key and no alias for it (only the development key, its own), and the synth passes cdk-nag', () => {
    expect(s.synthError).toBeUndefined();
    // the development key is always the stack's own (decision 295)
    expect(resources('AWS::KMS::Key').map(([id]) => id)).toEqual([s.logicalId(s.stack.signing.devKey)]);
    expect(resources('AWS::KMS::Alias').map(([, a]) => a.AliasName)).toEqual([
      'alias/frp-keep-dev-package-signing',
    ]);
    expect(s.stack.signing.keyImported).toBe(true);
    expect(s.nagViolations).toEqual([]);
    // the environment is known at synth: no deploy-time rule is needed
    expect(Object.keys(s.json.Rules ?? {})).not.toContain('SigningKeyInStackAccountAndRegion');
  });

  it("grants the worker Sign and GetPublicKey on that ARN, and gives it the key's id", () => {
    const fn = signerFunction();
    const sign = statementsOfFunction(s, fn).filter((st) => actionsOf(st).includes('kms:Sign'));
    expect(sign).toHaveLength(1);
    expect(sign[0]!.Resource).toBe(KEY_ARN);
    expect([...actionsOf(sign[0]!)].sort()).toEqual(['kms:GetPublicKey', 'kms:Sign']);
    const env = ((s.json.Resources[fn]!.Properties as Json).Environment as { Variables: Json }).Variables;
    expect(env.SIGNING_KEY_ID).toBe(KEY_ID);
  });

  it("points the trail's key alarm and the auditors at the imported key", () => {
    const filters = resources('AWS::Logs::MetricFilter').filter(([, f]) =>
      JSON.stringify(f.FilterPattern).includes(KEY_ARN),
    );
    expect(filters).toHaveLength(1);
    const auditorReads = resources('AWS::IAM::ManagedPolicy').filter(([, p]) =>
      JSON.stringify(p.PolicyDocument).includes(KEY_ARN),
    );
    expect(auditorReads.length).toBeGreaterThan(0);
  });

  it('prints the key-policy statements the operator must add, naming the worker role', () => {
    const outputs = s.json.Outputs ?? {};
    const role = JSON.stringify(outputs.SigningRoleArn?.Value);
    expect(role).toContain('frp-keep-generate-artefact-');
    const policy = JSON.stringify(outputs.SigningKeyPolicyToAdd?.Value);
    for (const part of ['SigningRolesSign', 'OnlySigningRolesSign', 'kms:Sign', 'aws:PrincipalArn', 'Deny'])
      expect(policy).toContain(part);
    expect(policy).toContain('frp-keep-generate-artefact-');
    expect(JSON.stringify(outputs.SigningKeyId?.Value)).toContain(KEY_ID);
  });
});

describe('signingKeyArn is checked at synth', () => {
  it('refuses what is not a KMS key ARN', () => {
    for (const bad of [
      'alias/frp-prod-package-signing',
      'arn:aws:kms:eu-central-1:123456789012:alias/frp-prod-package-signing',
      'arn:aws:iam::123456789012:role/signer',
      KEY_ID,
      `${KEY_ARN}x`,
    ])
      expect(() => configWith({ signingKeyArn: bad }), bad).toThrow(
        /signingKeyArn must be the ARN of a KMS key/,
      );
    expect(configWith({ signingKeyArn: KEY_ARN }).signingKeyArn).toBe(KEY_ARN);
    const mrk = 'arn:aws:kms:eu-central-1:123456789012:key/mrk-1234abcd12ab34cd56ef1234567890ab';
    expect(configWith({ signingKeyArn: mrk }).signingKeyArn).toBe(mrk);
  });

  it("refuses a key of another region or account than the stage's", () => {
    const pinned = { account: '123456789012', region: 'eu-central-1' };
    expect(() =>
      configWith({ ...pinned, signingKeyArn: KEY_ARN.replace('eu-central-1', 'eu-west-1') }),
    ).toThrow(/signingKeyArn is a key in eu-west-1, but the stage deploys to eu-central-1/);
    expect(() =>
      configWith({ ...pinned, signingKeyArn: KEY_ARN.replace('123456789012', '210987654321') }),
    ).toThrow(
      /signingKeyArn is a key of account 210987654321, but the stage deploys to account 123456789012/,
    );
    expect(() => configWith({ ...pinned, signingKeyArn: KEY_ARN })).not.toThrow();
  });

  it("refuses a key outside the stack's environment (from the CLI profile) when the stage pins none", () => {
    const config = configWith({ signingKeyArn: KEY_ARN });
    const stack = new Stack(new App(), 'Elsewhere', {
      env: { account: '123456789012', region: 'us-east-1' },
    });
    expect(() => new Signing(stack, 'Signing', { config })).toThrow(ConfigError);
    expect(() => new Signing(stack, 'Signing2', { config })).toThrow(
      /signingKeyArn is a key of region eu-central-1, but the stack deploys to region us-east-1/,
    );
  });

  it('checks an environment-agnostic stack by a template rule before anything is created', () => {
    const stack = new Stack(new App(), 'Agnostic');
    const signing = new Signing(stack, 'Signing', { config: configWith({ signingKeyArn: KEY_ARN }) });
    const json = Template.fromStack(stack).toJSON() as { Rules?: Record<string, Json> };
    const rule = JSON.stringify(json.Rules?.SigningKeyInStackAccountAndRegion);
    for (const part of ['AWS::Region', 'eu-central-1', 'AWS::AccountId', '123456789012'])
      expect(rule).toContain(part);
    expect(signing.packageKey.keyArn).toBe(KEY_ARN);
  });

  it('without the setting the stack creates its own key, with its own policy and nothing to add', () => {
    const stack = new Stack(new App(), 'Own');
    const signing = new Signing(stack, 'Signing', { config: configWith({}) });
    signing.allowSigning('RELEASE', 'arn:aws:iam::123456789012:role/frp-dev-signer');
    const template = Template.fromStack(stack);
    // the release key and the development key (decision 295), each with its alias
    template.resourceCountIs('AWS::KMS::Key', 2);
    template.resourceCountIs('AWS::KMS::Alias', 2);
    expect(signing.keyImported).toBe(false);
    expect(signing.operatorKeyPolicy()).toBeUndefined();
  });
});
