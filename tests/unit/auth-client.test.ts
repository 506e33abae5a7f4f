import { describe, expect, it } from 'vitest';
import { msalConfiguration, parseAuthConfig } from '../../src/app/auth/config.ts';
import { createIdleMonitor, timeoutAction, type Clock } from '../../src/app/auth/idle.ts';
import {
  afterLoginRoute, b2cError, identityFromClaims, inviteToken, landingUrl, safeRoute, sessionAfterUserInfo, sessionFromUser, utmFromCookies, withoutResponseQuery,
} from '../../src/app/auth/routing.ts';

const builtin = {
  kind: 'builtin', clientId: 'pos-portal-web', authority: 'https://localhost:3000/oidc', knownAuthorities: ['localhost:3000'],
  protocolMode: 'OIDC', scopes: ['api.read', 'api.write'], passwordResetAuthority: null, companyHomeUrl: 'https://example.com/',
};

describe('MSAL configuration from /auth-config.json', () => {
  it('is what STACK-NOTES says MSAL needs against the built-in provider', () => {
    const config = msalConfiguration(parseAuthConfig(builtin), 'https://localhost:3000');
    expect(config.auth).toMatchObject({
      clientId: 'pos-portal-web', authority: 'https://localhost:3000/oidc', knownAuthorities: ['localhost:3000'],
      redirectUri: 'https://localhost:3000/', postLogoutRedirectUri: 'https://localhost:3000/',
      OIDCOptions: { responseMode: 'query', defaultScopes: ['openid', 'profile', 'email', 'offline_access'] },
    });
    expect(config.system).toEqual({ protocolMode: 'OIDC' });
    expect(config.cache).toEqual({ cacheLocation: 'sessionStorage' });
  });

  it('leaves the protocol mode out for Entra / B2C, and refuses an http authority or a broken document', () => {
    const b2c = parseAuthConfig({ ...builtin, kind: 'external', protocolMode: 'AAD', authority: 'https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_susi', passwordResetAuthority: 'https://contoso.b2clogin.com/contoso.onmicrosoft.com/B2C_1_reset' });
    expect(msalConfiguration(b2c, 'https://portal.example.com').system).toEqual({});
    expect(b2c.passwordResetAuthority).toContain('B2C_1_reset');
    expect(() => parseAuthConfig({ ...builtin, authority: 'http://localhost:3000/oidc' })).toThrow();
    expect(() => parseAuthConfig({ ...builtin, scopes: 'api.read' })).toThrow();
    expect(() => parseAuthConfig(null)).toThrow();
  });

  it('takes the hand-over address only as a path on the app\'s own host', () => {
    expect(parseAuthConfig({ ...builtin, handOverPath: '/oidc/hand-over' }).handOverPath).toBe('/oidc/hand-over');
    for (const elsewhere of ['https://elsewhere.example/steal', '//elsewhere.example/steal', '/\\elsewhere.example/steal']) {
      expect(parseAuthConfig({ ...builtin, handOverPath: elsewhere }).handOverPath).toBeNull();
    }
    expect(parseAuthConfig(builtin).handOverPath).toBeNull();
  });
});

describe('after sign-in (spec §4)', () => {
  const base = { loginRoute: null as string | null, enrolled: true, userRole: null as string | null };

  it('goes to a stored invite route first, whatever else is true', () => {
    expect(afterLoginRoute({ ...base, enrolled: false, loginRoute: '/users/invite/5d0c2e1a-3f7b-4c8e-9a6d-2b1f0e4c7a93' })).toBe('/users/invite/5d0c2e1a-3f7b-4c8e-9a6d-2b1f0e4c7a93');
  });

  it('sends a user who has not enrolled to enroll', () => {
    expect(afterLoginRoute({ ...base, enrolled: false, loginRoute: '/home' })).toBe('/enroll');
  });

  it('sends an enrolled user to the stored route, or to the root, whose redirects (route table) pick each start page', () => {
    expect(afterLoginRoute({ ...base, loginRoute: '/logs/funded' })).toBe('/logs/funded');
    expect(afterLoginRoute({ ...base, loginRoute: null })).toBe('/');
    expect(afterLoginRoute({ ...base, loginRoute: '/' })).toBe('/');
    expect(afterLoginRoute({ ...base, loginRoute: '/admin/offices' })).toBe('/admin/offices');
  });

  it('never follows a stored route off the app', () => {
    expect(safeRoute('//evil.example.com')).toBeNull();
    expect(safeRoute('https://evil.example.com')).toBeNull();
    expect(afterLoginRoute({ ...base, loginRoute: '//evil.example.com/x' })).toBe('/');
  });

  it('fills the session of spec §3 from Users_GetUserInfo', () => {
    const state = sessionFromUser({
      userId: 'u1', firstName: 'Olivia', lastName: 'Bennett', email: 'o@x.test', role: 'admin', userRole: null, title: 'Manager', timeZone: 'CT',
      isMultipleOffices: true, hasBizApps: false, isEnrollmentCompleted: true, isApproved: false, officeId: 100, officeName: 'Bright Smiles Dental',
      enrollmentStatus: 'Submitted', statusReason: null, patientOnlyApplication: true, officeLandingCode: 'brightsmiles', accessDisabled: true,
      permissions: ['seeReports'],
    });
    expect(state).toMatchObject({
      userInfoLoaded: true, officeId: 100, selectedOfficeId: 100, enrolled: true, approved: false, isMultipleOffices: true, role: 'admin', patientOnlyApplication: true,
      officeLandingCode: 'brightsmiles', accessDisabled: true, permissions: ['seeReports'],
    });
  });

  it("keeps an office chosen while the user's info was on its way: a colleague who accepted an invitation stays in its office", () => {
    const answer = sessionFromUser({
      userId: 'u2', firstName: 'Casey', lastName: 'C', email: 'c@x.test', role: null, userRole: null, title: null, timeZone: null,
      isMultipleOffices: false, hasBizApps: false, isEnrollmentCompleted: false, isApproved: false, officeId: null, officeName: null,
      enrollmentStatus: null, statusReason: null, patientOnlyApplication: false, officeLandingCode: null, accessDisabled: false,
    } as never);
    expect(sessionAfterUserInfo(null, null, answer)).toEqual(answer);
    const kept = sessionAfterUserInfo(112, null, answer);
    expect(kept).toEqual({ userInfoLoaded: true, userId: 'u2', userRole: null, hasBizApps: false, accessDisabled: false });
    expect(kept).not.toHaveProperty('officeId');
    expect(kept).not.toHaveProperty('approved');
  });

  it('reads identity details from the ID token of each kind of issuer', () => {
    expect(identityFromClaims({ sub: 's', given_name: 'A', family_name: 'B', email: 'a@b.test' })).toEqual({ givenName: 'A', familyName: 'B', emails: ['a@b.test'], objectId: 's' });
    expect(identityFromClaims({ sub: 's', oid: 'o', emails: ['c@d.test'] })).toEqual({ givenName: '', familyName: '', emails: ['c@d.test'], objectId: 'o' });
  });

  it('recognises the B2C password-reset and cancel answers', () => {
    expect(b2cError(new Error('access_denied: AADB2C90118: The user has forgotten their password.'))).toBe('passwordReset');
    expect(b2cError(Object.assign(new Error('access_denied'), { errorMessage: 'AADB2C90091: The user has cancelled entering self-asserted information.' }))).toBe('cancelled');
    expect(b2cError(new Error('server_error'))).toBeNull();
  });

  it('passes an invitation to the built-in provider and cleans the provider answer out of the address', () => {
    expect(inviteToken('/users/invite/5d0c2e1a-3f7b-4c8e-9a6d-2b1f0e4c7a93')).toBe('5d0c2e1a-3f7b-4c8e-9a6d-2b1f0e4c7a93');
    expect(inviteToken('/users/invite/')).toBeNull();
    expect(landingUrl('https://localhost:3000/?code=abc&state=xyz&iss=https%3A%2F%2Flocalhost', '/signed-in')).toBe('https://localhost:3000/#/signed-in');
    expect(withoutResponseQuery('https://localhost:3000/?state=abc#/auth')).toBe('https://localhost:3000/#/auth');
    expect(withoutResponseQuery('https://localhost:3000/#/home')).toBeNull();
  });

  it('reads the utm cookie in its usual shapes', () => {
    expect(utmFromCookies('a=1; utm=%7B%22source%22%3A%22google%22%2C%22medium%22%3A%22cpc%22%2C%22campaign%22%3A%22spring%22%7D')).toEqual({ utmSource: 'google', utmMedium: 'cpc', utmCampaign: 'spring' });
    expect(utmFromCookies('utm=source%3Dnews%26medium%3Demail')).toEqual({ utmSource: 'news', utmMedium: 'email', utmCampaign: null });
    expect(utmFromCookies('utm_source=fb; utm_campaign=x')).toEqual({ utmSource: 'fb', utmMedium: null, utmCampaign: 'x' });
    expect(utmFromCookies('')).toEqual({ utmSource: null, utmMedium: null, utmCampaign: null });
  });
});

describe('session timeout (spec §4)', () => {
  function fakeClock() {
    let now = 0;
    let next = 0;
    const timers = new Map<number, { at: number; run: () => void }>();
    const clock: Clock = {
      now: () => now,
      setTimeout: (run, ms) => {
        timers.set(++next, { at: now + ms, run });
        return next;
      },
      clearTimeout: (handle) => void timers.delete(handle as number),
    };
    const advance = (ms: number) => {
      const end = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].run();
      }
      now = end;
    };
    return { clock, advance };
  }

  it('warns after 15 idle minutes, counts 30 seconds down, and expires once', () => {
    const { clock, advance } = fakeClock();
    let expired = 0;
    const monitor = createIdleMonitor({ clock, onExpire: () => expired++ });
    const seen: string[] = [];
    monitor.subscribe((s) => seen.push(s.phase === 'warning' ? `w${s.secondsLeft}` : s.phase));
    monitor.start();
    advance(899_999);
    expect(monitor.state()).toEqual({ phase: 'active' });
    advance(1);
    expect(monitor.state()).toEqual({ phase: 'warning', secondsLeft: 30 });
    advance(10_000);
    expect(monitor.state()).toEqual({ phase: 'warning', secondsLeft: 20 });
    advance(20_000);
    expect(monitor.state()).toEqual({ phase: 'expired' });
    advance(60_000);
    expect(expired).toBe(1);
    expect(seen.filter((s) => s.startsWith('w'))).toHaveLength(30);
  });

  it('restarts the 15 minutes on activity, and only Stay Logged In closes the warning', () => {
    const { clock, advance } = fakeClock();
    let expired = 0;
    const monitor = createIdleMonitor({ clock, onExpire: () => expired++ });
    monitor.start();
    advance(600_000);
    monitor.activity();
    advance(600_000);
    expect(monitor.state().phase).toBe('active');
    advance(300_000);
    expect(monitor.state().phase).toBe('warning');
    monitor.activity();
    advance(5_000);
    expect(monitor.state()).toEqual({ phase: 'warning', secondsLeft: 25 });
    monitor.stay();
    expect(monitor.state()).toEqual({ phase: 'active' });
    advance(899_000);
    expect(monitor.state().phase).toBe('active');
    expect(expired).toBe(0);
  });

  it('signs staff out, sends a borrower back to borrower sign-in for the application, and anyone else to the company home page', () => {
    expect(timeoutAction({ authenticated: true, borrowerAuthenticated: true, borrowerAppId: 12 })).toBe('signOut');
    expect(timeoutAction({ authenticated: false, borrowerAuthenticated: true, borrowerAppId: 1042 })).toBe('borrowerSignIn');
    expect(timeoutAction({ authenticated: false, borrowerAuthenticated: false, borrowerAppId: null })).toBe('companyHome');
  });
});
