// A real OpenID Connect provider (the certified `oidc-provider` package) for the room server's
// sign-in tests. It listens on 127.0.0.1 on a free port, signs with a fresh RSA key, knows the
// clients given on the command line and one user, who is signed in and consents without a form
// (the interaction pages finish at once), so a test can walk the whole authorization-code flow
// with PKCE over plain HTTP.
//
// Usage: node provider.mjs '{"user": "tester", "clients": [ …oidc-provider client metadata… ]}'
// Prints `ISSUER http://127.0.0.1:PORT` once it serves; stops when its standard input closes
// (so it never outlives the test that started it).
import http from 'node:http';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import Provider from 'oidc-provider';

const config = JSON.parse(process.argv[2] ?? '{}');
const user = config.user ?? 'tester';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), use: 'sig', alg: 'RS256' };

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: config.clients ?? [],
  jwks: { keys: [jwk] },
  cookies: { keys: [randomUUID()] },
  pkce: { required: () => true },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  findAccount: async (ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
  ttl: { IdToken: 3600, AccessToken: 3600, AuthorizationCode: 600, Interaction: 600, Session: 3600, Grant: 3600 },
});

// The interaction: sign the test user in, then grant what the client asked for.
async function interaction(req, res) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: user } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
  grant.addOIDCScope(String(details.params.scope ?? 'openid'));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

const callback = provider.callback();
server.on('request', (req, res) => {
  if (req.url.startsWith('/interaction/')) {
    interaction(req, res).catch((error) => {
      res.statusCode = 500;
      res.end(String(error));
    });
    return;
  }
  callback(req, res);
});

process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
console.log(`ISSUER ${issuer}`);
