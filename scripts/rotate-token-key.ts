/**
 * `npm run ops:rotate-token-key -- <show|rotate|retire> [--local] [--data-dir D] [--stage S] [--region R]
 *  [--secret-id ID] [--force]`
 *
 * Rotates the signing key of session tokens (decision 215, docs/operations.md "Rotating secrets"):
 * - `rotate` puts a new key in front of the key set: new sign-ins get tokens naming the new kid; tokens of
 *   the key before stay valid until they expire. A set that still holds a previous key is refused without
 *   `--force` (rotating again would drop it and refuse its live tokens at once).
 * - `retire` drops every key but the newest: tokens naming the others are refused (401) from then on.
 * - `show` lists the kids (never a secret).
 * Warm functions read the set again within TOKEN_KEYS_CACHE_SECONDS (5 minutes), and at once when they
 * meet a token of a key they do not know: no redeploy.
 *
 * - deployed: the Secrets Manager secret of the stage (found by its description, or `--secret-id`), read
 *   and written with the default AWS credential chain; `--region` overrides the region.
 * - `--local`: the key set file of the local stack's data folder (.data, DATA_DIR or --data-dir).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  LOCAL_KEY_SET_FILE,
  newTokenKey,
  parseKeySet,
  retireKeySet,
  rotateKeySet,
  serializeKeySet,
  type TokenKeySet,
} from '../lambdas/services/token-keys';
import { localDataDir, opsFail, TARGET_OPTIONS } from './ops-env';

const fail: (message: string) => never = opsFail('ops:rotate-token-key');

const { values, positionals } = parseArgs({
  options: {
    ...TARGET_OPTIONS,
    stage: { type: 'string', default: 'dev' },
    'secret-id': { type: 'string' },
    force: { type: 'boolean', default: false },
  },
  allowPositionals: true,
  strict: true,
});

const command = positionals[0];
if (positionals.length !== 1 || !['show', 'rotate', 'retire'].includes(command ?? ''))
  fail('say what to do: show, rotate or retire');

interface Store {
  where: string;
  read(): Promise<string>;
  write(text: string): Promise<void>;
}

function localStore(): Store {
  const dataDir = localDataDir(values['data-dir']);
  const file = resolve(dataDir, LOCAL_KEY_SET_FILE);
  if (!existsSync(file)) fail(`no ${file}: start the local stack once first (npm start)`);
  return {
    where: file,
    read: async () => readFileSync(file, 'utf8'),
    write: async (text) => {
      // the running stack reads the file at any moment: it sees the old set or the new one, never half
      const tmp = `${file}.tmp`;
      writeFileSync(tmp, text, { mode: 0o600 });
      renameSync(tmp, file);
    },
  };
}

async function deployedStore(): Promise<Store> {
  if (values.region) process.env.AWS_REGION = values.region;
  const sm = await import('@aws-sdk/client-secrets-manager');
  const client = new sm.SecretsManagerClient({});
  let id = values['secret-id'];
  if (!id) {
    // the description infra/lib/constructs/signing.ts gives the secret of this stage
    const description = `Firmware Release Portal (${values.stage}): HMAC key of session tokens`;
    const r = await client.send(
      new sm.ListSecretsCommand({ Filters: [{ Key: 'description', Values: [description] }] }),
    );
    const hits = (r.SecretList ?? []).filter((s) => s.Description?.startsWith(description));
    if (hits.length !== 1)
      fail(`found ${hits.length} secrets described "${description}…": name one with --secret-id`);
    id = hits[0]!.ARN!;
  }
  const secretId = id;
  return {
    where: secretId,
    read: async () => {
      const r = await client.send(new sm.GetSecretValueCommand({ SecretId: secretId }));
      if (!r.SecretString) fail(`${secretId} has no string value`);
      return r.SecretString;
    },
    write: async (text) => {
      // the version before keeps the staging label AWSPREVIOUS: a way back if something goes wrong
      await client.send(new sm.PutSecretValueCommand({ SecretId: secretId, SecretString: text }));
    },
  };
}

const listKeys = (set: TokenKeySet) =>
  set.keys
    .map(
      (k, i) =>
        `  ${i === 0 ? 'signs   ' : 'verifies'} ${k.kid}${k.createdAt ? ` (made ${k.createdAt})` : ''}`,
    )
    .join('\n');

const store = values.local ? localStore() : await deployedStore();
let set: TokenKeySet;
try {
  set = parseKeySet(await store.read());
} catch (e) {
  fail(`${store.where}: ${(e as Error).message}`);
}

if (command === 'show') {
  console.log(`Token key set in ${store.where}:\n${listKeys(set)}`);
} else if (command === 'rotate') {
  if (set.keys.length > 1 && !values.force)
    fail(
      `the set still holds the previous key ${set.keys[1]!.kid}: retire it first (after the token lifetime has passed since the last rotation), or pass --force to drop it and sign out its sessions`,
    );
  const next = rotateKeySet(set, newTokenKey(new Date()));
  await store.write(serializeKeySet(next));
  console.log(`Rotated ${store.where}:\n${listKeys(next)}`);
  console.log(
    'New sign-ins use the new key within the key cache time (5 minutes); sessions of the previous key last until they expire. Retire it after the token lifetime: ops:rotate-token-key -- retire',
  );
} else {
  if (set.keys.length === 1) {
    console.log(`Nothing to retire in ${store.where}:\n${listKeys(set)}`);
  } else {
    const next = retireKeySet(set);
    await store.write(serializeKeySet(next));
    console.log(
      `Retired ${set.keys
        .slice(1)
        .map((k) => k.kid)
        .join(', ')} in ${store.where}:\n${listKeys(next)}`,
    );
    console.log(
      'Tokens naming a retired key are refused (401) once functions read the set again (at most 5 minutes).',
    );
  }
}
