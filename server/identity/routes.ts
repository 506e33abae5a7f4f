import type { IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Settings } from '../config.ts';
import type { Db } from '../db/index.ts';
import { inviteByToken } from '../domain/users/invites.ts';
import { sendEmail } from '../notify/outbox.ts';
import { passwordResetEmail } from '../notify/messages.ts';
import {
  consumePasswordToken,
  createLocalUser,
  createPasswordToken,
  normalizeEmail,
  peekPasswordToken,
  recordResetRequest,
  recordSignUp,
  resetRequestAllowed,
  RESET_MINUTES,
  setPassword,
  signIn,
  signUpAllowed,
  userByEmail,
  userById,
  SIGN_IN_LIMITS,
} from './accounts.ts';
import { MIN_PASSWORD_LENGTH, PasswordPolicyError, hashPassword } from './password.ts';
import { forgotPage, loginPage, messagePage, resetPage, signUpPage, type Page, type SignUpValues } from './pages.ts';
import { HAND_OVER_PATH, MOUNT, passwordLink } from './paths.ts';
import { firstPartyGrant } from './provider.ts';
import { endSession, revokeAccount } from './adapter.ts';
import { HttpProblem } from '../http/problem.ts';
import { users } from '../db/schema.ts';
import { serverBrand, type ServerBrand } from '../descriptors/brands.ts';
import { eq } from 'drizzle-orm';

type Form = Record<string, string>;

const NAME = /^[A-Za-z' -]{1,25}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;
/** Shown for every failed sign-in, whether the e-mail exists or not. */
const WRONG = 'The email or password is not correct.';
const LOCKED = `Too many failed sign-ins. Try again in ${SIGN_IN_LIMITS.windowMinutes} minutes, or reset your password.`;

function sendPage(reply: FastifyReply, page: Page): FastifyReply {
  return reply
    .code(page.status)
    .header('content-security-policy', page.csp)
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page.html);
}

const text = (form: Form, name: string): string => (typeof form[name] === 'string' ? form[name]!.trim() : '');

function passwordErrors(password: string, confirm: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if ([...password.normalize('NFKC')].length < MIN_PASSWORD_LENGTH) errors.password = `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.`;
  else if (password.length > 200) errors.password = 'The password must be at most 200 characters long.';
  if (password !== confirm) errors.confirm = 'The passwords do not match.';
  return errors;
}

export interface IdentityRoutesOptions {
  provider: Provider;
  /** The API audience (resource) the first-party grant covers. */
  audience: string;
  settings: Pick<Settings, 'publicUrl'>;
  db: Db;
  /** The staff access token's user (the API's own check). */
  staffToken(token: string): Promise<{ userId: string }>;
}

/**
 * Mounts the built-in OpenID provider under /oidc and serves its pages: sign-in, sign-up, forgotten
 * password (by an e-mailed link through the outbox) and the reset page. The provider's own endpoints
 * (discovery, authorize, token, jwks, end-session, userinfo) are oidc-provider's, reached through a
 * catch-all route that hands it the raw request.
 */
export async function identityRoutes(app: FastifyInstance, options: IdentityRoutesOptions): Promise<void> {
  const { provider, settings, db } = options;
  const portalSignIn = `${settings.publicUrl}/#/auth`;
  const interactionPath = (uid: string, step = '') => `${MOUNT}/interaction/${encodeURIComponent(uid)}${step ? `/${step}` : ''}`;

  // ---- oidc-provider itself --------------------------------------------------------------------
  await app.register(async (scope) => {
    // oidc-provider reads request bodies itself: leave the stream untouched.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    const callback = provider.callback();
    const handle = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      const raw = request.raw as IncomingMessage & { originalUrl?: string };
      raw.originalUrl = raw.url;
      raw.url = raw.url!.slice(MOUNT.length) || '/';
      reply.raw.setHeader('x-content-type-options', 'nosniff');
      reply.raw.setHeader('referrer-policy', 'no-referrer');
      await callback(raw, reply.raw);
    };
    scope.all(MOUNT, handle);
    scope.all(`${MOUNT}/*`, handle);
  });

  // ---- hand-over on the office's device (docs/decisions/0232) -------------------------------------
  app.post(HAND_OVER_PATH, async (request, reply) => {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const userId = token ? await options.staffToken(token).then(({ userId }) => userId, () => undefined) : undefined;
    if (!userId) throw new HttpProblem(401, 'The access token is not valid or has expired.');
    // The session this browser's cookie names, when it reaches this host; else (a brand's own host, where the
    // provider's cookie does not come) every session of the member, so that none signs staff in unasked.
    const session = await provider.Session.get({ req: request.raw, res: reply.raw } as unknown as Parameters<typeof provider.Session.get>[0]);
    const ended = session.accountId === userId && (await endSession(db, session.jti, userId));
    if (!ended) await revokeAccount(db, userId);
    return reply.code(204).header('cache-control', 'no-store').send();
  });

  // ---- the pages ----------------------------------------------------------------------------------
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) => {
      const parsed = parseQuery(String(body));
      done(null, Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, Array.isArray(v) ? (v[0] ?? '') : (v ?? '')])));
    });
    // Reset tokens travel in the URL: keep them out of the request log.
    const quiet = { logLevel: 'warn' as const };

    /**
     * The brand the web app asked for (MSAL's extraQueryParameters), else the brand of the host the web app runs on
     * (the authorization request's redirect_uri: a brand's own host signs in at PUBLIC_URL), else the one of this host.
     */
    const brandOf = (request: FastifyRequest, asked?: unknown, params?: { redirect_uri?: unknown }) => {
      const appHost = typeof params?.redirect_uri === 'string' ? URL.parse(params.redirect_uri)?.host : undefined;
      const ofApp = appHost ? serverBrand(appHost, asked) : undefined;
      return ofApp && ofApp.id !== serverBrand(undefined).id ? ofApp : serverBrand(request.host, asked);
    };

    async function details(request: FastifyRequest, reply: FastifyReply) {
      try {
        return await provider.interactionDetails(request.raw, reply.raw);
      } catch {
        sendPage(reply, messagePage(brandOf(request), { title: 'Sign-in expired', text: 'This sign-in page has expired. Start again from the portal.', kind: 'error', status: 400, link: { label: 'Back to the portal', url: portalSignIn } }));
        return undefined;
      }
    }

    async function finishLogin(request: FastifyRequest, reply: FastifyReply, accountId: string) {
      const returnTo = await provider.interactionResult(request.raw, reply.raw, { login: { accountId, amr: ['pwd'], remember: true } }, { mergeWithLastSubmission: false });
      await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, accountId));
      return reply.redirect(returnTo, 303);
    }

    /** An invitation named by the authorization request (MSAL's extraQueryParameters), if still good. */
    async function invitation(params: Record<string, unknown>) {
      const token = typeof params.invite === 'string' ? params.invite : undefined;
      if (!token || !/^[0-9a-f-]{36}$/i.test(token)) return undefined;
      const invite = await inviteByToken(db, token);
      return invite && !invite.isExpired && !invite.isProcessed ? invite : undefined;
    }

    scope.get<{ Params: { uid: string } }>(`${MOUNT}/interaction/:uid`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      const { uid, params, prompt } = interaction;
      if (prompt.name !== 'login') {
        // The consent step of the first-party web client is granted at once (provider.ts).
        const accountId = interaction.session?.accountId;
        if (prompt.name !== 'consent' || !accountId) {
          const returnTo = await provider.interactionResult(request.raw, reply.raw, { error: 'access_denied', error_description: 'This request cannot be completed.' }, { mergeWithLastSubmission: false });
          return reply.redirect(returnTo, 303);
        }
        const grantId = await firstPartyGrant(provider, { accountId, clientId: String(params.client_id), grantId: interaction.grantId, audience: options.audience });
        const returnTo = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
        return reply.redirect(returnTo, 303);
      }
      const invite = await invitation(params);
      if ((invite && !invite.user?.hasPassword) || params.screen === 'signup') return reply.redirect(interactionPath(uid, 'signup'), 303);
      const hint = typeof params.login_hint === 'string' ? params.login_hint : invite?.invite.email;
      return sendPage(reply, loginPage(brand, {
        action: interactionPath(uid, 'login'),
        signUpUrl: interactionPath(uid, 'signup'),
        forgotUrl: interactionPath(uid, 'forgot'),
        email: hint,
        notice: invite ? `Sign in to accept your invitation to ${invite.officeName}.` : undefined,
      }));
    });

    scope.post<{ Params: { uid: string }; Body: Form }>(`${MOUNT}/interaction/:uid/login`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      const form = request.body ?? {};
      const email = text(form, 'email');
      const result = await signIn(db, { email, password: typeof form.password === 'string' ? form.password : '', ip: request.ip });
      if (result.ok) return finishLogin(request, reply, result.user.id);
      return sendPage(reply, loginPage(brand, {
        action: interactionPath(interaction.uid, 'login'),
        signUpUrl: interactionPath(interaction.uid, 'signup'),
        forgotUrl: interactionPath(interaction.uid, 'forgot'),
        email,
        error: result.reason === 'locked' ? LOCKED : WRONG,
      }));
    });

    scope.get<{ Params: { uid: string } }>(`${MOUNT}/interaction/:uid/signup`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      const invite = await invitation(interaction.params);
      return sendPage(reply, signUpPage(brand, {
        action: interactionPath(interaction.uid, 'signup'),
        signInUrl: interactionPath(interaction.uid),
        values: invite?.user ? { firstName: invite.user.firstName, lastName: invite.user.lastName } : {},
        errors: {},
        invitedEmail: invite?.invite.email,
        officeName: invite?.officeName,
      }));
    });

    scope.post<{ Params: { uid: string }; Body: Form }>(`${MOUNT}/interaction/:uid/signup`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      const form = request.body ?? {};
      const invite = await invitation(interaction.params);
      const values: SignUpValues = { firstName: text(form, 'firstName'), lastName: text(form, 'lastName'), email: invite?.invite.email ?? normalizeEmail(text(form, 'email')) };
      const password = typeof form.password === 'string' ? form.password : '';
      const errors: Record<string, string> = { ...passwordErrors(password, typeof form.confirm === 'string' ? form.confirm : '') };
      if (!NAME.test(values.firstName!)) errors.firstName = 'Names can only contain alphabets, spaces, hyphens and apostrophes (1 to 25).';
      if (!NAME.test(values.lastName!)) errors.lastName = 'Names can only contain alphabets, spaces, hyphens and apostrophes (1 to 25).';
      if (!EMAIL.test(values.email!) || values.email!.length > 100) errors.email = 'This field must be a valid e-mail address.';
      const render = (error?: string) =>
        sendPage(reply, signUpPage(brand, {
          action: interactionPath(interaction.uid, 'signup'),
          signInUrl: interactionPath(interaction.uid),
          values,
          errors,
          error,
          invitedEmail: invite?.invite.email,
          officeName: invite?.officeName,
        }));
      if (Object.keys(errors).length) return render();
      if (!(await signUpAllowed(db, request.ip))) return render('Too many new accounts from this address. Try again later.');
      const existing = await userByEmail(db, values.email!);
      let accountId: string;
      if (existing && invite && !existing.passwordHash && existing.email === invite.invite.email) {
        // The invitation e-mail proves the address: the invited person sets the first password.
        await db.update(users).set({ firstName: values.firstName!, lastName: values.lastName!, passwordHash: await hashPassword(password), provider: 'local', updatedAt: new Date() }).where(eq(users.id, existing.id));
        accountId = existing.id;
      } else if (existing) {
        return render(`An account already exists for ${values.email}. Sign in, or use 'Forgot your password?' to choose a new password.`);
      } else {
        try {
          const user = await createLocalUser(db, { email: values.email!, firstName: values.firstName!, lastName: values.lastName!, password });
          await recordSignUp(db, user, request.ip);
          accountId = user.id;
        } catch (error) {
          if (error instanceof PasswordPolicyError) return render(error.message);
          // Two sign-ups with one e-mail at once: the unique index refuses the second.
          if ((error as { code?: string }).code === '23505' || String(error).includes('users_email_key')) return render(`An account already exists for ${values.email}.`);
          throw error;
        }
      }
      return finishLogin(request, reply, accountId);
    });

    scope.get<{ Params: { uid: string } }>(`${MOUNT}/interaction/:uid/forgot`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      return sendPage(reply, forgotPage(brand, { action: interactionPath(interaction.uid, 'forgot'), signInUrl: interactionPath(interaction.uid) }));
    });

    scope.post<{ Params: { uid: string }; Body: Form }>(`${MOUNT}/interaction/:uid/forgot`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const brand = brandOf(request, interaction.params.brand, interaction.params);
      const email = normalizeEmail(text(request.body ?? {}, 'email'));
      const page = { action: interactionPath(interaction.uid, 'forgot'), signInUrl: interactionPath(interaction.uid), email };
      if (!EMAIL.test(email)) return sendPage(reply, forgotPage(brand, { ...page, error: 'This field must be a valid e-mail address.' }));
      // The same answer whether or not the account exists; limits are silent for the same reason.
      if (await resetRequestAllowed(db, email, request.ip)) {
        await recordResetRequest(db, email, request.ip);
        const user = await userByEmail(db, email);
        if (user && !user.isDisabled && user.provider === 'local') {
          const token = await createPasswordToken(db, user.id, RESET_MINUTES * 60);
          const url = passwordLink(settings.publicUrl, token, brand.id);
          await sendEmail(db, passwordResetEmail({ to: user.email, firstName: user.firstName, url, minutes: RESET_MINUTES, brandName: brand.name }));
        }
      } else {
        request.log.warn({ security: 'password-reset-throttled' }, 'password reset requests throttled');
      }
      return sendPage(reply, forgotPage(brand, { ...page, sent: true }));
    });

    scope.get<{ Params: { uid: string } }>(`${MOUNT}/interaction/:uid/abort`, async (request, reply) => {
      const interaction = await details(request, reply);
      if (!interaction) return reply;
      const returnTo = await provider.interactionResult(request.raw, reply.raw, { error: 'access_denied', error_description: 'The user cancelled the sign-in.' }, { mergeWithLastSubmission: false });
      return reply.redirect(returnTo, 303);
    });

    const expired = (brand: ServerBrand) =>
      messagePage(brand, { title: 'Link expired', text: 'This link has expired or was already used. Ask for a new one from the sign-in page.', kind: 'error', status: 400, link: { label: 'Go to sign in', url: portalSignIn } });

    scope.get<{ Querystring: { token?: string; brand?: string } }>(`${MOUNT}/account/reset`, quiet, async (request, reply) => {
      const token = request.query.token ?? '';
      const brand = brandOf(request, request.query.brand);
      const userId = /^[A-Za-z0-9_-]{20,100}$/.test(token) ? await peekPasswordToken(db, token) : undefined;
      if (!userId) return sendPage(reply, expired(brand));
      const user = await userById(db, userId);
      return sendPage(reply, resetPage(brand, { action: `${MOUNT}/account/reset`, token, errors: {}, heading: user?.passwordHash ? 'Choose a new password' : 'Choose your password' }));
    });

    scope.post<{ Body: Form }>(`${MOUNT}/account/reset`, quiet, async (request, reply) => {
      const form = request.body ?? {};
      const token = text(form, 'token');
      const brand = brandOf(request, form.brand);
      const password = typeof form.password === 'string' ? form.password : '';
      const errors = passwordErrors(password, typeof form.confirm === 'string' ? form.confirm : '');
      if (!/^[A-Za-z0-9_-]{20,100}$/.test(token) || !(await peekPasswordToken(db, token))) return sendPage(reply, expired(brand));
      if (Object.keys(errors).length) return sendPage(reply, resetPage(brand, { action: `${MOUNT}/account/reset`, token, errors }));
      const userId = await consumePasswordToken(db, token);
      if (!userId) return sendPage(reply, expired(brand));
      await setPassword(db, userId, password);
      return sendPage(reply, messagePage(brand, { title: 'Password saved', text: 'Your password was saved. Sign in with it now.', link: { label: 'Sign in', url: portalSignIn } }));
    });
  });
}
