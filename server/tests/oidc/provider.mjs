// A real OpenID Connect provider (the certified `oidc-provider` package) for the room server's
// sign-in tests. It listens on 127.0.0.1 on a free port, signs with a fresh RSA key, knows the
// clients given on the command line and one user, who is signed in and consents without a form
// (the interaction pages finish at once), so a test can walk the whole authorization-code flow
// with PKCE over plain HTTP. With `"login_form": true` the login is a form page where a browser
// test types any user name (several accounts from one provider).
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

// With `"login_form": true` the login is a page with a form (a browser test types a user name
// and submits it, as a person signs in); otherwise the configured user is signed in at once.
const loginForm = config.login_form === true;

function readForm(req) {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
      if (body.length > 4096) reject(new Error('form too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

function loginPage(res, uid) {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width">
<title>Test provider: sign in</title></head><body><h1>Sign in to the test provider</h1>
<form method="post" action="/interaction/${uid}"><label>User <input name="login" id="login" autocomplete="username" required></label>
<button type="submit" id="submit">Sign in</button></form></body></html>`);
}

// The interaction: sign the test user in, then grant what the client asked for.
async function interaction(req, res) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    if (!loginForm) {
      await provider.interactionFinished(req, res, { login: { accountId: user } }, { mergeWithLastSubmission: false });
      return;
    }
    if (req.method !== 'POST') {
      loginPage(res, details.uid);
      return;
    }
    const login = ((await readForm(req)).get('login') || '').trim().slice(0, 64);
    if (!login) {
      loginPage(res, details.uid);
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
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
