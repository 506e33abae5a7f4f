import type { Scenario } from './load.ts';
import type { Fixture } from './profiles.ts';

/** The key the bench gives the server in API_KEYS and sends as X-Api-Key. */
export const API_KEY = 'bench-api-key-1';
export const AUDIENCE = 'api://pos-portal';
export const PAGE_SIZE = 25;

/** A JSON PUT to the API as the staff user of `token` (the list calls are PUTs with a query body). */
function putScenario(name: string, url: string, token: string, body: unknown): Scenario {
  return { name, url, method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) };
}

/** The home screen's list: a page of 25 active applications, newest first, filtered by name. */
export function officeAppsScenario(base: string, token: string, fixture: Fixture): Scenario {
  return putScenario('GetOfficeApps', `${base}/api/App/GetOfficeApps`, token, {
    officeId: fixture.officeId, page: 1, pageSize: PAGE_SIZE, sortBy: 'createdAtUtc', sortDesc: true, search: fixture.search,
  });
}

/** The kanban's lanes: every active stage of the office with its newest cards and its count. */
export function officeAppsByStageScenario(base: string, token: string, fixture: Fixture): Scenario {
  return putScenario('GetOfficeAppsByStage', `${base}/api/App/GetOfficeAppsByStage`, token, { officeId: fixture.officeId });
}

/** The detail screen of one application of the office. */
export function appScenario(base: string, token: string, fixture: Fixture): Scenario {
  return {
    name: 'GetApp',
    url: `${base}/api/App/GetApp/${fixture.appId}/false`,
    method: 'GET',
    headers: { authorization: `Bearer ${token}`, 'x-api-key': API_KEY },
  };
}

export function helloScenario(base: string): Scenario {
  return { name: 'hello-world', url: `${base}/`, method: 'GET', headers: {} };
}

/**
 * One request of the scenario before any load: it must answer 200 with the expected body, else
 * the load would only measure error responses. Returns a one-line description of the answer.
 */
export async function checkScenario(scenario: Scenario, expect: (body: unknown) => string | undefined): Promise<string> {
  const response = await fetch(scenario.url, {
    method: scenario.method,
    headers: scenario.headers,
    ...(scenario.body === undefined ? {} : { body: scenario.body }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${scenario.name} answered ${response.status} instead of 200:\n    ${text.slice(0, 2_000)}`);
  const body: unknown = JSON.parse(text);
  const problem = expect(body);
  if (problem) throw new Error(`${scenario.name} answered 200 but ${problem}:\n    ${text.slice(0, 2_000)}`);
  const rowCount = (body as Loose).rowCount;
  return `${scenario.name} → 200, ${text.length.toLocaleString('en-US')} bytes${typeof rowCount === 'number' ? `, rowCount ${rowCount}` : ''}`;
}

type Loose = Record<string, unknown>;

export const expectPage =
  (fixture: Fixture) =>
  (body: unknown): string | undefined => {
    const page = body as Loose;
    const results = page.results as Loose[] | undefined;
    if (!Array.isArray(results)) return 'the body has no results';
    const rowCount = Number(page.rowCount);
    // The server may match more than 'first last' (a last name too): at least the rows counted by prepare.
    if (!(rowCount >= fixture.searchMatches)) return `rowCount is ${String(page.rowCount)}, expected at least ${fixture.searchMatches}`;
    if (results.length !== Math.min(PAGE_SIZE, rowCount)) return `the page has ${results.length} rows`;
    if (results.some((row) => row.officeId !== fixture.officeId)) return 'a row belongs to another office';
    return undefined;
  };

export const expectLanes =
  (fixture: Fixture) =>
  (body: unknown): string | undefined => {
    if (!Array.isArray(body) || body.length === 0) return 'the body is not a list of lanes';
    const cards = (body as Loose[]).reduce((sum, lane) => sum + Number(lane.count), 0);
    return cards === fixture.activeApps ? undefined : `the lanes count ${cards} applications, the office has ${fixture.activeApps} active`;
  };

export const expectApp =
  (fixture: Fixture) =>
  (body: unknown): string | undefined =>
    (body as Loose).id === fixture.appId ? undefined : `the body is not application ${fixture.appId}`;

export const expectHello = (body: unknown): string | undefined => ((body as Loose).hello === 'world' ? undefined : 'the body is not {hello: world}');
