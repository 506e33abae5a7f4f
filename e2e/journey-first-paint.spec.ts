/**
 * The first paint (issue 42, decision 0286), in Chromium against the real server. Every screen the page says it can
 * paint (its #first-paint-data, made from the live descriptors) is opened twice on a phone and on a desktop: once with
 * the app's code held back, to see what the HTML alone paints (with the landing page's office, which the script reads
 * from the API), and once as usual, to see the app's own heading, intro and opening texts. They must stand in the same places, so the app takes over without anything moving; then the cover
 * is gone. A form's painted fields stand where the app draws its own, and what a person types into them before the app
 * runs ends in the app's fields; on the painted page the cover waits while the person types into a field the app has not
 * drawn yet, and ten seconds end it; over another page than the painted one, the cover ends two seconds after the app's
 * heading even so. A page of data shows its frame while its answer is on the way, and keeps it until the app draws when
 * the read fails. A Spanish browser gets the Spanish words, and a tab with a session gets no cover.
 */
import { expect, test, type Browser, type Locator, type Page, type Route } from '@playwright/test';
import type { FirstPaint } from '../core/first-paint.ts';
import { PREVIEW_FLAG, TAB_KEYS } from '../core/tab-keys.ts';

test.use({ ignoreHTTPSErrors: true });

/** A value for each route parameter the painted routes have; a new parameter needs one here. */
const SAMPLES: Record<string, string> = { id: '1', code: 'brightsmiles' };
/** The values for a new application, where a form whose source fills it (a texted link's) starts empty. */
const NEW_APPLICATION: Record<string, string> = { ...SAMPLES, id: '0' };

const address = (path: string, samples = SAMPLES) =>
  `/#${path.replace(/:(\w+)\??/g, (_, name: string) => {
    if (!(name in samples)) throw new Error(`no sample value for the route parameter '${name}' of ${path}`);
    return samples[name]!;
  })}`;

type PaintedRoute = FirstPaint['routes'][number];
type PaintedField = NonNullable<NonNullable<PaintedRoute['screen']>['form']>['fields'][number];

/** The addresses a painted route is opened at: a form whose fields show for some addresses only, at one of each. */
const addresses = (route: PaintedRoute) => [address(route.path), ...(route.screen?.form?.when === undefined ? [] : [address(route.path, NEW_APPLICATION)])];

/**
 * The painted screens' boxes, read from the cover or from the app: heading, the text after it, cards, and a form's
 * fields: label, input and hint of each (the app draws more fields than the cover: the caller compares as many).
 */
function boxes(page: Page, where: 'cover' | 'app'): Promise<string[]> {
  return page.evaluate((where) => {
    const root = document.getElementById(where === 'cover' ? 'first-paint' : 'root')!;
    const heading = root.querySelector('main h1');
    const cards = [...root.querySelectorAll(where === 'cover' ? '.fp-card' : 'main [data-screen="detail"] > div > div')];
    const next = heading?.nextElementSibling;
    const inputs = [...root.querySelectorAll<HTMLInputElement>(where === 'cover' ? 'input' : 'form input:not([type=hidden])')];
    const fields = inputs.map((input) => input.id).flatMap((id) => [
      root.querySelector(`label[for="${id}"]`),
      document.getElementById(id),
      where === 'cover' ? (document.getElementById(id)?.nextElementSibling ?? null) : document.getElementById(`${id}__help`),
    ]);
    const shown = [heading, next && next.tagName === 'P' ? next : null, ...cards, ...fields].filter((node): node is Element => node !== null && node !== undefined);
    return shown.map((node) => {
      const box = node.getBoundingClientRect();
      return `${node.textContent} @ ${[box.x, box.y, box.width, box.height].map((n) => Math.round(n)).join(',')}`;
    });
  }, where);
}

/**
 * The page's first-paint data, read from its HTML as served: opening it in the tab would start the app, which (with
 * this project's signed-in session) may leave the page for the sign-in before the data is read.
 */
async function paintData(page: Page): Promise<FirstPaint> {
  const html = await (await page.request.get('/')).text();
  const data = /<script type="application\/json" id="first-paint-data">(.*?)<\/script>/s.exec(html)?.[1];
  expect(data, 'the page carries its first-paint data').toBeDefined();
  return JSON.parse(data!) as FirstPaint;
}

async function withPage<T>(browser: Browser, options: { width: number; locale: string }, use: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: options.width, height: 823 }, locale: options.locale });
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

/** The first painted form with a text field, and that field. */
function paintedTextField(data: FirstPaint): { route: PaintedRoute; field: PaintedField } {
  const route = data.routes.find((candidate) => candidate.screen?.form?.fields.some((field) => field.type === undefined));
  expect(route, 'a painted form has a text field').toBeDefined();
  return { route: route!, field: route!.screen!.form!.fields.find((candidate) => candidate.type === undefined)! };
}

/**
 * Opens the painted form with the app's code held back, types 'Ana' into the cover's field, then lets the code in
 * (each script through `serve`) and returns once the app shows its heading. The page's timers run only when the test
 * moves its clock: the seconds the cover waits are counted, not waited for.
 */
async function typeThenLetTheAppIn(held: Page, route: PaintedRoute, field: PaintedField, serve: (request: Route) => Promise<void>): Promise<Locator> {
  let release = () => {};
  const arrived = new Promise<void>((resolve) => (release = resolve));
  await held.route('**/assets/*.js', async (request) => {
    await arrived;
    await serve(request);
  });
  await held.clock.install();
  await held.goto(address(route.path, NEW_APPLICATION), { waitUntil: 'commit' });
  await held.getByLabel(String(field.label.en)).click();
  await held.keyboard.type('Ana');
  await held.clock.pauseAt(Date.now() + 1_000);
  release();
  const heading = held.locator('#root main h1');
  await expect(async () => {
    await held.clock.runFor(50);
    await expect(heading).toBeVisible({ timeout: 100 });
  }).toPass();
  return heading;
}

// A phone and a desktop in English, and a phone in Spanish: the painted words are the app's in each language.
for (const [width, locale] of [[412, 'en-US'], [1280, 'en-US'], [412, 'es-MX']] as const) {
  test(`every screen the page can paint stands where the app draws it, ${width} px, ${locale}`, async ({ browser, page }) => {
    const painted = (await paintData(page)).routes.filter((route) => route.screen);
    expect(painted.length, 'the page paints the borrower entry screens').toBeGreaterThanOrEqual(3);
    const urls = painted.flatMap(addresses);
    // Two tabs for each address: a budget that grows with the screens the data paints, as 60 s did not beside the crawl.
    test.setTimeout(20_000 * (urls.length + 1));
    let fields = 0;
    for (const url of urls) {
      const cover = await withPage(browser, { width, locale }, async (held) => {
        await held.route('**/assets/*.js', (request) => request.abort());
        await held.goto(url);
        await expect(held.locator('#first-paint main h1'), url).not.toBeEmpty();
        return boxes(held, 'cover');
      });
      fields += cover.filter((box) => box.startsWith(' @')).length;
      await withPage(browser, { width, locale }, async (shown) => {
        await shown.goto(url);
        await expect(shown.locator('#root main h1'), url).toBeVisible();
        await expect(shown.locator('#first-paint'), `${url}: the app's heading ends the cover`).toHaveCount(0);
        // Read as the cover goes; a machine busy with other specs once read a frame before the app's last layout.
        await expect
          .poll(async () => (await boxes(shown, 'app')).slice(0, cover.length), { message: `${url}: the app draws the painted words in the same places`, timeout: 3_000 })
          .toEqual(cover);
      });
    }
    expect(fields, 'a form paints fields a person can type into').toBeGreaterThan(0);
  });
}

test("what a person types into the painted fields before the app runs ends in the app's fields, the caret where it was", async ({ browser, page }) => {
  const data = await paintData(page);
  const route = data.routes.find((candidate) => (candidate.screen?.form?.fields.filter((field) => field.type === undefined).length ?? 0) >= 2)!;
  expect(route, 'a painted form has two text fields').toBeDefined();
  const [first, second] = route.screen!.form!.fields.filter((field) => field.type === undefined);
  await withPage(browser, { width: 412, locale: 'en-US' }, async (held) => {
    let release = () => {};
    const arrived = new Promise<void>((resolve) => (release = resolve));
    await held.route('**/assets/*.js', async (request) => {
      await arrived;
      await request.continue();
    });
    await held.goto(address(route.path, NEW_APPLICATION), { waitUntil: 'commit' });
    await held.getByLabel(String(first!.label.en)).click();
    await held.keyboard.type('Ana');
    await held.getByLabel(String(second!.label.en)).click();
    await held.keyboard.type('Lóez');
    await held.keyboard.press('ArrowLeft');
    await held.keyboard.press('ArrowLeft');
    await expect(held.locator(`#${first!.id}`), 'the app has not run yet').toHaveCount(0);
    const focusRing = () => held.evaluate(() => ['borderTopColor', 'outlineStyle', 'outlineColor', 'outlineWidth'].map((name) => getComputedStyle(document.activeElement!)[name as 'color']).join(' '));
    const painted = await focusRing();
    release();
    await expect(held.locator('#first-paint')).toHaveCount(0);
    await expect(held.locator(`#${first!.id}`)).toHaveValue('Ana');
    await expect(held.locator(`#${second!.id}`)).toBeFocused();
    expect(await focusRing(), 'the focused field looks the same after the hand-over').toBe(painted);
    await held.keyboard.type('p');
    await expect(held.locator(`#${second!.id}`)).toHaveValue('López');
    // The form holds them, not only the inputs: a submit finds other fields missing, not these.
    await held.locator('form button[type=submit]').first().click();
    await expect(held.locator('[data-error-for]:not(:empty)').first()).toBeVisible();
    for (const field of [first!, second!]) await expect(held.locator(`[data-error-for="${field.id}"]:not(:empty)`)).toHaveCount(0);
    await expect(held.locator(`#${first!.id}`)).toHaveValue('Ana');
  });
});

test("over another page than the painted one, the cover ends two seconds after the app's heading, though a field the app does not draw holds what was typed", async ({ browser, page }) => {
  const { route, field } = paintedTextField(await paintData(page));
  await withPage(browser, { width: 412, locale: 'en-US' }, async (held) => {
    // The app's own route table loses the painted route: where the cover drew the form, the app shows its not-found page.
    let moved = false;
    const heading = await typeThenLetTheAppIn(held, route, field, async (request) => {
      const response = await request.fetch();
      const code = await response.text();
      const routePath = `\`${route.path}\``;
      moved ||= code.includes(routePath);
      await request.fulfill({ response, body: code.replaceAll(routePath, `\`${route.path}/elsewhere\``) });
    });
    expect(moved, "the app's route table carried the painted route, and lost it").toBe(true);
    await expect(heading).not.toHaveText(String(route.screen!.title.en));
    await expect(held.locator(`#${field.id}`), 'the app draws no field for what was typed').toHaveCount(0);
    await held.clock.runFor(1_800);
    await expect(held.locator('#first-paint'), 'the person is still typing into the cover\'s field').toHaveCount(1);
    await held.clock.runFor(400);
    await expect(held.locator('#first-paint'), 'two seconds after the heading, the cover ends all the same').toHaveCount(0);
    await expect(heading).toBeVisible();
  });
});

test("on the painted page, while the person types into a field the app has not drawn yet, the cover waits past two seconds, and ten seconds end it", async ({ browser, page }) => {
  const { route, field } = paintedTextField(await paintData(page));
  await withPage(browser, { width: 412, locale: 'en-US' }, async (held) => {
    // The app's input for the field loses its id as it is drawn (before the cover's own observer looks, which was made
    // later): to the cover, the app shows the painted page with that field still to come.
    await held.addInitScript((id) => {
      new MutationObserver(() => {
        const input = document.querySelector(`#root #${id}`);
        if (input) input.id = `${id}-later`;
      }).observe(document, { childList: true, subtree: true });
    }, field.id);
    const heading = await typeThenLetTheAppIn(held, route, field, (request) => request.continue());
    await expect(heading).toHaveText(String(route.screen!.title.en));
    await expect(held.locator(`#${field.id}-later`), 'the app drew the field, under another id').toHaveCount(1);
    await held.clock.runFor(2_400);
    await expect(held.locator('#first-paint'), 'two seconds after the heading, the cover still takes the typing').toHaveCount(1);
    await expect(held.locator(`#fp-${field.id}`)).toHaveValue('Ana');
    await held.clock.runFor(10_000);
    await expect(held.locator('#first-paint'), 'ten seconds end the cover in any case').toHaveCount(0);
    await expect(heading).toBeVisible();
  });
});

test("a page of data paints its frame while its answer is on the way; without an answer the frame stays until the app draws its own page", async ({ browser, page }) => {
  const data = await paintData(page);
  const route = data.routes.find((candidate) => candidate.screen?.source);
  expect(route, 'a painted page reads its data').toBeDefined();
  const readPath = route!.screen!.source!.path.replace(/\{\w+\}.*$/, '');
  for (const [code, arrives] of [[SAMPLES.code!, 'its words'], ['nosuchoffice', "the app's not-found page"]] as const) {
    await withPage(browser, { width: 412, locale: 'en-US' }, async (held) => {
      let letTheAnswerIn = () => {};
      const answered = new Promise<void>((resolve) => (letTheAnswerIn = resolve));
      let letTheCodeIn = () => {};
      const coded = new Promise<void>((resolve) => (letTheCodeIn = resolve));
      await held.route(`**${readPath}**`, async (request) => {
        await answered;
        await request.continue();
      });
      await held.route('**/assets/*.js', async (request) => {
        await coded;
        await request.continue();
      });
      await held.goto(address(route!.path, { ...SAMPLES, code }), { waitUntil: 'commit' });
      const cover = held.locator('#first-paint');
      await expect(cover.locator('header'), `${code}: the frame shows before the answer`).toBeVisible();
      await expect(cover.locator('main')).toBeEmpty();
      const read = held.waitForResponse((response) => response.url().includes(readPath));
      letTheAnswerIn();
      await read;
      if (arrives === 'its words') {
        await expect(cover.locator('main h1'), 'the answer brings the words').not.toBeEmpty();
        letTheCodeIn();
        await expect(held.locator('#root main h1')).toBeVisible();
      } else {
        // The script has taken the answer once the page has run a task after it.
        await held.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
        await expect(cover.locator('header'), 'without the code, the frame stays: no blank page').toBeVisible();
        await expect(cover.locator('main h1')).toHaveCount(0);
        letTheCodeIn();
        await expect(held.getByRole('heading', { name: 'This page could not be found' })).toBeVisible();
      }
      await expect(cover, `${code}: the cover goes once the app has drawn ${arrives}`).toHaveCount(0);
    });
  }
});

test('a Spanish browser gets the Spanish words first; a tab with a session and a studio preview get no cover', async ({ browser, page }) => {
  const data = await paintData(page);
  const form = data.routes.find((route) => route.screen?.intro)!;
  const url = address(form.path);
  await withPage(browser, { width: 412, locale: 'es-MX' }, async (held) => {
    await held.route('**/assets/*.js', (request) => request.abort());
    await held.goto(url);
    await expect(held.locator('#first-paint main h1')).toHaveText(String(form.screen!.title.es));
    await expect(held.locator('#first-paint')).toHaveAttribute('lang', 'es');
    await expect(held.locator('#first-paint .fp-langs .fp-on')).toHaveText('Español');
  });
  await withPage(browser, { width: 412, locale: 'en-US' }, async (held) => {
    await held.route('**/assets/*.js', (request) => request.abort());
    await held.goto(url);
    await expect(held.locator('#first-paint main h1')).toBeVisible();
    await held.evaluate((key) => sessionStorage.setItem(key, 'v1.signed-in'), TAB_KEYS.session);
    await held.reload();
    await expect(held.locator('#first-paint')).toBeHidden();
  });
  await withPage(browser, { width: 412, locale: 'en-US' }, async (held) => {
    await held.route('**/assets/*.js', (request) => request.abort());
    await held.goto(url.replace('/#', `/?${PREVIEW_FLAG}=1#`));
    await expect(held.locator('#first-paint')).toBeHidden();
  });
});

// In Spanish, the words of the language are a chunk of their own too.
for (const locale of ['en-US', 'es-MX']) {
  test(`a painted screen's own code is fetched once, as the entry arrives, from the files the build made, ${locale}`, async ({ browser, page }) => {
    const data = await paintData(page);
    const form = data.routes.find((route) => route.screen?.preload?.some((file) => file.startsWith('FormScreen-')));
    expect(form, 'a painted form lists its code').toBeDefined();
    const words = data.languages.find((language) => language.locale === locale.slice(0, 2))?.preload ?? [];
    expect(words.length > 0, "a language other than the source lists its words' chunk").toBe(locale !== 'en-US');
    await withPage(browser, { width: 412, locale }, async (shown) => {
      const fetched: string[] = [];
      shown.on('response', (response) => {
        if (response.ok() && /\/assets\/[^/]+\.js$/.test(response.url())) fetched.push(new URL(response.url()).pathname);
      });
      await shown.goto(address(form!.path));
      await expect(shown.locator('#root main h1')).toBeVisible();
      const links = await shown.locator('link[rel=modulepreload]').evaluateAll((nodes) => nodes.map((node) => new URL((node as HTMLLinkElement).href).pathname));
      const listed = [...form!.screen!.preload!, ...words].map((file) => `/assets/${file}`);
      expect(links).toEqual(expect.arrayContaining(listed));
      for (const file of listed) expect(fetched.filter((path) => path === file), file).toHaveLength(1);
    });
  });
}
