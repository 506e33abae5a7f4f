// @ts-check
/*
 * The first paint (decision 0286). The server puts this script, inline, into the page with what can be painted
 * (core/first-paint.ts, in #first-paint-data). It runs while the app's code is still on its way: it finds the route the
 * app will show, in the language the app will choose, and draws its frame, heading, intro and opening texts into
 * #first-paint, which covers the page, until the app shows the same words in the same places. A page of data gets its
 * frame at once and its words with its answer (decision 0301). It draws nothing for a
 * tab with a session (the app knows what a signed-in person sees), a studio preview, another brand than the page's,
 * or a route it has nothing for.
 */
(function () {
  var found = document.getElementById('first-paint');
  var words = document.getElementById('first-paint-data');
  if (!found || !words) return;
  var cover = found;
  /** @type {import('../core/first-paint.ts').FirstPaint} */
  var data = JSON.parse(words.textContent || '{}');

  function stored(/** @type {string} */ key) {
    try {
      return sessionStorage.getItem(key);
    } catch (e) {
      return null;
    }
  }
  // A signed-in tab's screens are the app's to draw; a studio preview shows drafts, not the live words.
  if (stored(data.keys.session) || new URLSearchParams(location.search).has(data.keys.preview)) return;

  // The address as the app reads it (src/engine/context.ts addressQuery, core/brand.ts requestedBrand).
  var hash = location.hash.replace(/^#/, '');
  var mark = hash.indexOf('?');
  var path = (mark >= 0 ? hash.slice(0, mark) : hash) || '/';
  var query = Object.fromEntries(new URLSearchParams(mark >= 0 ? hash.slice(mark) : location.search));
  var brand = new URLSearchParams(location.search).get('brand') || query.brand || stored(data.keys.brand);
  if (brand && brand !== data.brand) return;

  /** The route's parameters when `pattern` ('/app/prequal/:id?') matches the path, as react-router matches. */
  function match(/** @type {string} */ pattern) {
    var want = pattern.split('/').filter(Boolean);
    var have = path.split('/').filter(Boolean);
    /** @type {Record<string, string>} */
    var params = {};
    for (const [i, segment] of want.entries()) {
      if (segment === '*') return params;
      const given = have[i];
      if (given === undefined) {
        if (segment.endsWith('?')) continue;
        return null;
      }
      if (segment.startsWith(':')) params[segment.replace(/^:|\?$/g, '')] = decodeURIComponent(given);
      else if (segment.toLowerCase() !== given.toLowerCase()) return null;
    }
    return have.length > want.length ? null : params;
  }
  /** @type {Record<string, string> | null} */
  var params = null;
  var screen;
  for (const route of data.routes) {
    params = match(route.path);
    screen = route.screen;
    if (params) break;
  }
  if (!params || !screen) return;
  /** @type {{ route: { params: Record<string, string>, query: Record<string, string> }, data?: unknown }} */
  var context = { route: { params: params, query: query } };

  // core/expressions.ts for the operators a route condition may hold (core/first-paint.ts keeps to them).
  function read(/** @type {string} */ path) {
    return path.split('.').reduce(function (/** @type {any} */ node, /** @type {string} */ key) {
      return node === null || node === undefined || typeof node !== 'object' ? undefined : node[key];
    }, /** @type {any} */ (context));
  }
  function truthy(/** @type {unknown} */ value) {
    return Array.isArray(value) ? value.length > 0 : Boolean(value);
  }
  function same(/** @type {unknown} */ a, /** @type {unknown} */ b) {
    a = a === undefined ? null : a;
    b = b === undefined ? null : b;
    if (a === null || b === null || typeof a === 'object' || typeof b === 'object' || typeof a === typeof b) return a === b;
    return String(a) === String(b);
  }
  /** @returns {unknown} */
  function evaluate(/** @type {any} */ expression) {
    if (expression === null || typeof expression !== 'object' || Array.isArray(expression)) return expression;
    var op = Object.keys(expression)[0] ?? '';
    var args = Array.isArray(expression[op]) ? expression[op] : [expression[op]];
    /** @type {any} */
    var value;
    switch (op) {
      case 'var':
        value = read(args[0]);
        return value === undefined ? null : value;
      case '==':
        return same(evaluate(args[0]), evaluate(args[1]));
      case '!=':
        return !same(evaluate(args[0]), evaluate(args[1]));
      case '!':
        return !truthy(evaluate(args[0]));
      case '!!':
        return truthy(evaluate(args[0]));
      case 'and':
      case 'or':
        value = op === 'and';
        for (var i = 0; i < args.length; i++) {
          value = evaluate(args[i]);
          if (truthy(value) !== (op === 'and')) return value;
        }
        return value;
      case 'if':
        for (var j = 0; j + 1 < args.length; j += 2) if (truthy(evaluate(args[j]))) return evaluate(args[j + 1]);
        return args.length % 2 ? evaluate(args[args.length - 1]) : null;
      case '<':
      case '<=':
      case '>':
      case '>=':
        var values = args.map(evaluate).map(function (/** @type {unknown} */ v) {
          return v === null || v === undefined || v === '' ? NaN : Number(v);
        });
        if (values.length < 2 || values.some(isNaN)) return false;
        for (var k = 0; k + 1 < values.length; k++) {
          var [a, b] = [values[k], values[k + 1]];
          if (!(op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : a >= b)) return false;
        }
        return true;
    }
    return null;
  }

  if (
    (screen.away || []).some(function (when) {
      return truthy(evaluate(when));
    })
  )
    return;
  var shown = screen;

  // The language the app starts in (src/app/language.ts startingLocale, core/i18n.ts negotiate).
  var offered = data.languages.map(function (language) {
    return language.locale;
  });
  var asked = query.lang || stored(data.keys.language);
  var locale =
    asked && offered.includes(asked)
      ? asked
      : ((navigator.languages || []).map((wish) => wish.toLowerCase().split('-')[0] ?? '').find((wish) => offered.includes(wish)) ?? data.source);

  // The screen's own code and its language's words are fetched while the entry runs, rather than in waves once the
  // entry has run and found them; not before the entry has come, with which they would share a slow line.
  var entry = /** @type {HTMLScriptElement | null} */ (document.querySelector('script[type=module][src]'));
  var chosen = data.languages.find(function (language) {
    return language.locale === locale;
  });
  var preload = (shown.preload || []).concat((chosen && chosen.preload) || []);
  if (entry && preload.length) {
    var from = entry;
    var fetchCode = function () {
      for (const file of preload) {
        var link = /** @type {HTMLLinkElement} */ (element('link', ''));
        link.rel = 'modulepreload';
        link.href = new URL(file, from.src).href;
        if (from.crossOrigin !== null) link.crossOrigin = from.crossOrigin;
        document.head.append(link);
      }
    };
    var entryCame = function () {
      return performance.getEntriesByName(from.src, 'resource').length > 0;
    };
    if (entryCame()) fetchCode();
    else {
      var arrival = new PerformanceObserver(function () {
        if (!entryCame()) return;
        arrival.disconnect();
        fetchCode();
      });
      // Buffered: the entry may have come between the look above and this.
      arrival.observe({ type: 'resource', buffered: true });
    }
  }

  /**
   * @param {string} tag
   * @param {string} className
   * @param {string} [text]
   */
  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  /** A text as core/expressions.ts text() shows it: the expression's result, its placeholders filled. */
  function say(/** @type {Record<string, unknown>} */ words) {
    var value = evaluate(locale in words ? words[locale] : words[data.source]);
    if (value === null || value === undefined) return '';
    if (typeof value !== 'string') return String(value);
    return value.replace(/\{([\w.]+)\}/g, function (_, /** @type {string} */ path) {
      var found = read(path);
      return found === null || found === undefined ? '' : String(found);
    });
  }
  /** @type {HTMLElement | undefined} */
  var main;
  /** The layout's frame (brand, language picker) and an empty main, which the page's words go into. */
  function paintFrame() {
    if (main) return main;
    var name = data.alternate && truthy(evaluate(data.alternate.when)) ? data.alternate.name : data.name;
    var frame = element('div', 'fp-' + shown.layout);
    var header = element('header', 'fp-head');
    var bar = element('div', 'fp-bar');
    if (shown.layout === 'welcome') {
      var brandMark = element('span', 'fp-mark');
      if (data.logo) {
        var logo = /** @type {HTMLImageElement} */ (element('img', ''));
        logo.src = data.logo;
        logo.alt = '';
        brandMark.append(logo);
      }
      var words = element('span', 'fp-name');
      words.append(element('span', 'fp-long', name), element('span', 'fp-short', data.mark));
      brandMark.append(words);
      bar.append(brandMark);
    } else {
      bar.append(element('div', 'fp-name', name));
    }
    if (shown.picker) {
      var picker = element('div', 'fp-langs');
      data.languages.forEach(function (language) {
        var button = element('span', language.locale === locale ? 'fp-on' : '', language.name);
        button.lang = language.locale;
        picker.append(button);
      });
      bar.append(picker);
    }
    header.append(bar);
    main = element('main', 'fp-main');
    frame.append(header, main);
    cover.append(frame);
    cover.lang = locale;
    cover.hidden = false;
    return main;
  }
  function paint() {
    var main = paintFrame();
    main.append(element('h1', '', say(shown.title)));
    if (shown.intro) main.append(element('p', 'fp-intro', say(shown.intro)));
    var cards = element('div', 'fp-cards');
    for (const section of shown.sections) {
      if (section.when !== undefined && !truthy(evaluate(section.when))) continue;
      if ('stop' in section) break;
      cards.append(element('div', 'fp-card', say(section.text)));
    }
    if (cards.childNodes.length) main.append(cards);
    var form = shown.form;
    if (form && (form.when === undefined || truthy(evaluate(form.when)))) {
      var grid = element('div', 'fp-fields' + (form.columns === 2 ? ' fp-two' : ''));
      for (const field of form.fields) {
        var box = element('div', field.half ? 'fp-field' : 'fp-field fp-full');
        var label = /** @type {HTMLLabelElement} */ (element('label', 'fp-label'));
        label.htmlFor = 'fp-' + field.id;
        label.append(element('span', 'fp-words', say(field.label)));
        if (field.required) label.append(element('span', 'fp-star', '*'));
        var input = /** @type {HTMLInputElement} */ (element('input', ''));
        input.id = label.htmlFor;
        input.type = field.type || 'text';
        input.autocomplete = /** @type {AutoFill} */ (field.autocomplete || 'off');
        input.required = !!field.required;
        input.placeholder = field.placeholder ? say(field.placeholder) : '';
        input.dataset.for = field.id;
        box.append(label, input);
        if (field.hint) box.append(element('div', 'fp-hint', say(field.hint)));
        grid.append(box);
        inputs.push(input);
      }
      main.append(grid);
      // People type here: the cover is no longer only a picture of the page.
      cover.removeAttribute('aria-hidden');
    }
    painted = Array.from(main.querySelectorAll('h1, p, .fp-card, .fp-words, .fp-hint'), function (node) {
      return node.textContent || '';
    });
    watch.observe(root, { childList: true, subtree: true, characterData: true });
  }

  // The cover ends, before the browser paints again, once the app shows every text it painted, and every field: the
  // person sees the same words stay in their places (e2e/journey-first-paint.spec.ts), and what they typed stays in the
  // field they typed it in, the caret where it was. An app that shows something else (an alert, other words) ends it two
  // seconds after its first heading, unless the person is typing into a field the app has not drawn yet on the same
  // page; ten seconds end it in any case. Taps pass through it to the app's same places below, but for its fields
  // (public/first-paint.css).
  var root = document.getElementById('root') || document.body;
  /** @type {string[]} */
  var painted = [];
  /** @type {HTMLInputElement[]} */
  var inputs = [];
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  var fallback;
  /** The app's input for one of the cover's (src/engine/forms/templates.tsx gives it @rjsf's id). */
  function twin(/** @type {HTMLInputElement} */ input) {
    var found = document.getElementById(input.dataset.for || '');
    return found instanceof HTMLInputElement && root.contains(found) ? found : null;
  }
  var setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
  /** What was typed goes to the app's fields as typing would: an input event, which the app's own handler takes. */
  function handOver() {
    var focused = document.activeElement;
    for (const input of inputs) {
      var target = twin(input);
      if (!target) continue;
      if (input.value && !target.value && setValue && setValue.set) {
        setValue.set.call(target, input.value);
        target.dispatchEvent(new Event('input', { bubbles: true }));
      }
      if (input !== focused) continue;
      target.focus();
      try {
        target.setSelectionRange(input.selectionStart, input.selectionEnd, input.selectionDirection || undefined);
      } catch (e) {
        // An e-mail input has no caret the page can place: it stays at the end.
      }
    }
  }
  function end() {
    watch.disconnect();
    clearTimeout(fallback);
    handOver();
    cover.remove();
    // The app's first read has taken the script's answer by now, or reads for itself: none is handed out later, stale.
    Object.assign(window, { posFirstRead: undefined });
  }
  /**
   * Ends the cover, unless the person is typing into a field the app has not drawn yet on the same page (its heading is
   * the painted one): then it waits two seconds more.
   */
  function endUnlessTyping() {
    var heading = root.querySelector('main h1');
    var typing = inputs.some(function (input) {
      return (input.value || input === document.activeElement) && !twin(input);
    });
    if (typing && heading && heading.textContent === painted[0]) fallback = setTimeout(endUnlessTyping, 2000);
    else end();
  }
  var watch = new MutationObserver(function () {
    var text = root.textContent || '';
    if (root.querySelector('[role=alert]')) return end();
    var shows = painted.every(function (words) {
      return text.indexOf(words) >= 0;
    });
    if (shows && inputs.every(twin)) return end();
    if (!root.querySelector('h1')) return;
    // The app's words are there for assistive technology now: the cover's are hidden from it, its fields are not yet.
    for (const words of cover.querySelectorAll('header, main > :not(.fp-fields)')) words.setAttribute('aria-hidden', 'true');
    if (!fallback) fallback = setTimeout(endUnlessTyping, 2000);
  });
  setTimeout(end, 10000);

  // A page of data reads it first, as the app will: its public answer, in the person's language.
  var source = shown.source;
  if (!source) return paint();
  if (source.when !== undefined && !truthy(evaluate(source.when))) return;
  var config = document.querySelector('meta[name=pos-config]');
  /** @type {Record<string, string>} */
  var headers = { 'Accept-Language': locale };
  try {
    var key = JSON.parse((config && config.getAttribute('content')) || '{}').apiKey;
    if (source.key && key) headers['X-Api-Key'] = key;
  } catch (e) {
    return;
  }
  // The frame needs no answer: it shows while the answer is on its way.
  paintFrame();
  var call = source;
  var url = call.path.replace(/\{(\w+)\}/g, function (_, /** @type {string} */ name) {
    return encodeURIComponent(String(evaluate(call.params[name])));
  });
  var answer = fetch(url, { headers: headers });
  // The app takes this answer for its own first read of the address (src/app/api/first-read.ts): one call, not two.
  Object.assign(window, {
    posFirstRead: {
      url: new URL(url, location.href).href,
      answer: answer.then(function (response) {
        return response.clone();
      }),
    },
  });
  answer
    .then(function (response) {
      return response.ok ? response.json() : undefined;
    })
    .then(function (body) {
      // Painted only while the app has not drawn its page yet.
      if (body === undefined || !cover.isConnected || root.querySelector('h1')) return frameOnly();
      context.data = body;
      paint();
    })
    .catch(frameOnly);
  /** Without the page's words the frame stays only until the app draws its own heading or an alert (a 404's page). */
  function frameOnly() {
    var drawn = function () {
      return root.querySelector('h1, [role=alert]');
    };
    if (drawn()) return cover.remove();
    var wait = new MutationObserver(function () {
      if (!drawn()) return;
      wait.disconnect();
      cover.remove();
    });
    wait.observe(root, { childList: true, subtree: true });
  }
})();
