import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import type { FastifyInstance } from 'fastify';
import { loadSettings } from '../../server/config.ts';
import { buildServer } from '../../server/app.ts';
import { createIdentity } from '../../server/identity/index.ts';
import { harness, type Harness } from '../support/harness.ts';

/**
 * An external issuer by configuration only: a stand-in issuer on loopback publishes OpenID metadata and
 * its keys (as Entra External ID / B2C do); the API finds them by discovery, checks issuer and audience,
 * and maps the token's subject to a user (docs/decisions/0064).
 */
describe('an external issuer', () => {
  let h: Harness;
  let issuerServer: Server;
  let base = '';
  let privateKey: CryptoKey;
  let app: FastifyInstance;
  let discoveries = 0;
  const audience = 'api://contoso-pos';
  const linked = `linked-${Date.now()}@example.test`;
  const issuerId = () => `${base}/tenant-id/v2.0/`;

  const token = (claims: Record<string, unknown>, options: { audience?: string; issuer?: string; scp?: string } = {}) =>
    new SignJWT({ scp: options.scp ?? 'api.read api.write', ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'ext-1' })
      .setIssuer(options.issuer ?? issuerId())
      .setAudience(options.audience ?? audience)
      .setSubject(String(claims.sub ?? 'subject'))
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(privateKey);
  const info = (bearer: string) => app.inject({ method: 'POST', url: '/api/Users/GetUserInfo', payload: {}, headers: { authorization: `Bearer ${bearer}` } });

  beforeAll(async () => {
    h = await harness();
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'ext-1', alg: 'RS256', use: 'sig' }] });
    issuerServer = createServer((request, response) => {
      if (request.url === '/tenant/B2C_1_susi/v2.0/.well-known/openid-configuration') {
        discoveries += 1;
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ issuer: issuerId(), jwks_uri: `${base}/keys` }));
      } else if (request.url === '/keys') response.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => issuerServer.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
    const settings = loadSettings({
      ...process.env, DATA_DIR: h.settings.dataDir, APP_MODE: 'demo', API_KEYS: 'test-api-key-1', LOG_LEVEL: 'silent', DATABASE_URL: '',
      OIDC_AUTHORITY: `${base}/tenant/B2C_1_susi`, OIDC_CLIENT_ID: 'spa-client-id', OIDC_SCOPES: 'api://contoso-pos/api.read api://contoso-pos/api.write',
      OIDC_AUDIENCE: audience, OIDC_PASSWORD_RESET_AUTHORITY: `${base}/tenant/B2C_1_reset`,
    });
    const identity = await createIdentity(settings, h.database);
    app = await buildServer({ settings, database: h.database, verifiers: identity.verifiers, identity });
    await app.ready();
  });
  afterAll(() => new Promise<void>((resolve) => issuerServer.close(() => resolve())));

  it('tells the web app to use MSAL against the external authority, and serves no provider of its own', async () => {
    const config = JSON.parse((await app.inject({ method: 'GET', url: '/auth-config.json' })).body);
    expect(config).toEqual({
      kind: 'external', clientId: 'spa-client-id', authority: `${base}/tenant/B2C_1_susi`, knownAuthorities: [new URL(base).host], protocolMode: 'AAD',
      scopes: ['api://contoso-pos/api.read', 'api://contoso-pos/api.write'], passwordResetAuthority: `${base}/tenant/B2C_1_reset`, companyHomeUrl: `${h.settings.publicUrl}/`, handOverPath: null,
    });
    expect((await app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' })).statusCode).toBe(404);
  });

  it('links an existing account by e-mail on its first token, then by subject; discovery is fetched once', async () => {
    // An invited person (an account without an issuer subject yet) in an office of the demo data.
    await h.database.db.execute(sql`
      with person as (insert into users (email, first_name, last_name, role) values (${linked}, 'Lin', 'Ked', 'support') returning id)
      insert into user_offices (user_id, office_id, role) select id, 101, 'support' from person`);
    const first = await info(await token({ sub: 'b2c-sub-1', oid: 'b2c-oid-linked', emails: [linked.toUpperCase()] }));
    expect(first.statusCode, first.body).toBe(200);
    expect(JSON.parse(first.body)).toMatchObject({ email: linked, officeId: 101 });
    const row = (await h.database.db.execute<{ provider: string; provider_id: string }>(sql`select provider, provider_id from users where email = ${linked}`)).rows[0]!;
    expect(row).toEqual({ provider: new URL(base).host, provider_id: 'b2c-oid-linked' });
    // Same person, e-mail changed at the issuer: still the same user, by subject.
    const again = await info(await token({ sub: 'b2c-sub-1', oid: 'b2c-oid-linked', emails: ['renamed@example.test'] }));
    expect(JSON.parse(again.body).email).toBe(linked);
    expect(discoveries).toBe(1);
  });

  it('creates the account of someone who signed up at the issuer; they then have no office', async () => {
    const answer = await info(await token({ sub: 'new-sub', oid: 'new-oid', emails: ['signed-up@example.test'], given_name: 'Sia', family_name: 'Up' }));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ email: 'signed-up@example.test', firstName: 'Sia', lastName: 'Up', officeId: null, isEnrollmentCompleted: false });
  });

  it('refuses a wrong audience, a wrong issuer, a token without the API scope, and an e-mail another subject holds', async () => {
    expect((await info(await token({ sub: 'x', oid: 'b2c-oid-linked' }, { audience: 'api://other' }))).statusCode).toBe(401);
    expect((await info(await token({ sub: 'x', oid: 'b2c-oid-linked' }, { issuer: 'https://evil.example.com/' }))).statusCode).toBe(401);
    expect((await info(await token({ sub: 'x', oid: 'b2c-oid-linked' }, { scp: 'User.Read' }))).statusCode).toBe(401);
    expect((await info(await token({ sub: 'thief', oid: 'thief', emails: [linked] }))).statusCode).toBe(401);
  });
});
