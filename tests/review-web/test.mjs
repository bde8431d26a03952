// Drives the `hintlens review` page in headless Chromium (Debian's, through playwright-core).
// scripts/test-review-web batches the example benchmark, starts the server and runs:
//
//   node test.mjs --url URL --out DIR [--chromium PATH]
//       the example's review: the list, the chart of hidden contracts per repository and the
//       filter by them, a task and its hidden contracts, an identifier dropped with a note, the
//       page reloaded and the decision still there; keyboard navigation and a filter.
//       Screenshots of each step go to DIR (list.png, audit.png, dropped.png, reloaded.png;
//       failure.png if a step fails).
//   node test.mjs --url URL --out DIR --timing --tasks N [--chromium PATH]
//       only loads the list and prints how long it took (navigation start to N rows shown).
//
// Exits 0 only when every step passed.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { chromium } from 'playwright-core';

import { StepFailure, clock, launch, requireArgs } from '../browser/chromium.mjs';

const { values: args } = parseArgs({
    options: {
        url: { type: 'string' },
        out: { type: 'string' },
        chromium: { type: 'string', default: '/usr/bin/chromium' },
        timing: { type: 'boolean', default: false },
        tasks: { type: 'string' },
    },
});
requireArgs(args, ['url', 'out'], 'node test.mjs --url URL --out DIR [--chromium PATH] [--timing --tasks N]');

const { log } = clock();

function check(condition, message) {
    if (!condition) throw new StepFailure(message);
}

fs.mkdirSync(args.out, { recursive: true });
let browser;
let page;
let step = 'start';
const pageErrors = [];

async function shot(name) {
    await page.screenshot({ path: path.join(args.out, `${name}.png`), fullPage: false });
}

const row = (id) => page.locator(`tr[data-testid="task-row"][data-id="${id}"]`);
const card = (name) => page.locator(`[data-testid="identifier"][data-name="${name}"]`);

async function listLoaded(expected) {
    await page.waitForFunction((n) => document.querySelectorAll('tr[data-testid="task-row"]').length === n, expected, { timeout: 30000 });
    return page.evaluate(() => ({
        readyMs: Number(document.body.dataset.listReadyMs),
        buildMs: Number(document.body.dataset.listBuildMs),
        nav: performance.getEntriesByType('navigation')[0]?.toJSON(),
    }));
}

async function timing() {
    const expected = Number(args.tasks);
    check(expected > 0, '--timing needs --tasks N');
    step = 'timing';
    // Twice: the first run includes Chromium's own start-up of the renderer.
    for (const run of ['cold', 'warm']) {
        const t0 = Date.now();
        await page.goto(args.url);
        const t = await listLoaded(expected);
        const wall = Date.now() - t0;
        log(`${run}: ${expected} rows shown ${t.readyMs} ms after navigation start (the list request and render: ${t.buildMs} ms; goto to rows seen: ${wall} ms)`);
    }
    await shot('timing');
}

async function review() {
    step = 'list';
    await page.goto(args.url);
    const t = await listLoaded(5);
    log(`list: 5 tasks, shown ${t.readyMs} ms after navigation start`);
    check((await page.locator('#progress').textContent()) === '0/5 reviewed', 'the progress reads 0/5 reviewed');
    await shot('list');

    step = 'audit';
    // Told the problem statement (the example's shape): 4 of the 5 tasks have a name the tests
    // need that no base file holds and the statement does not state.
    const bars = await page.locator('[data-testid="audit-bar"]').evaluateAll((gs) => gs.map((g) => [g.dataset.repo, g.dataset.tasks, g.dataset.withHidden]));
    check(JSON.stringify(bars) === JSON.stringify([['acme/jsonlite', '2', '2'], ['acme/textkit', '3', '2']]), `the chart draws a bar per repository (got ${JSON.stringify(bars)})`);
    check((await page.locator('[data-testid="audit-chart"] svg rect.hidden').count()) === 2, 'each bar shows its tasks with a hidden contract');
    const told = await page.locator('[data-testid="audit-told"]').textContent();
    check(told.includes('told problem_statement') && told.includes('4/5 tasks, 10 hidden names'), `the chart says what was told (got ${told})`);
    const rowsShown = () => page.locator('tr[data-testid="task-row"]').evaluateAll((rows) => rows.map((r) => r.dataset.id));
    await page.locator('[data-testid="filter-hidden"]').selectOption('none');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-testid="task-row"]').length === 1);
    check(JSON.stringify(await rowsShown()) === '["acme__textkit-3"]', 'only acme__textkit-3 has no hidden contract');
    await page.locator('[data-testid="filter-hidden"]').selectOption('hidden');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-testid="task-row"]').length === 4);
    check((await row('acme__textkit-2').locator('[data-testid="hidden-count"]').textContent()) === '4', 'the list counts a task\'s hidden contracts');
    await shot('audit');
    // A bar is a filter: that repository's tasks with a hidden contract.
    await page.locator('[data-testid="audit-bar"][data-repo="acme/textkit"]').click();
    await page.waitForFunction(() => document.querySelectorAll('tr[data-testid="task-row"]').length === 2);
    check(JSON.stringify((await rowsShown()).sort()) === '["acme__textkit-1","acme__textkit-2"]', `the bar shows acme/textkit's flagged tasks (got ${await rowsShown()})`);
    await page.locator('[data-testid="filter-hidden"]').selectOption('');
    await page.locator('[data-testid="filter-repo"]').selectOption('');
    await listLoaded(5);
    log('audit: the chart per repository, the hidden-contract filter and a bar as a filter');

    step = 'open';
    await row('acme__textkit-1').click();
    await page.waitForSelector('[data-testid="task-title"]:text("acme__textkit-1")');
    const statement = await page.locator('[data-testid="statement"]').textContent();
    check(statement.includes('Allow a custom separator'), `the problem statement is shown (got ${statement})`);
    const hint = await page.locator('[data-testid="hint-curated"]').textContent();
    check(hint.includes('function `truncate_slug`'), `the hint block holds truncate_slug (got ${hint})`);
    const definition = await card('truncate_slug').locator('[data-testid="definition"]').textContent();
    check(definition.includes('def truncate_slug(slug: str, max_length: int = 20) -> str:'), `the definition at R is shown (got ${definition})`);
    const evidence = await card('truncate_slug').locator('[data-testid="evidence"]').textContent();
    check(evidence.includes('tests/test_slug.py:1') && evidence.includes('from textkit.slug import slugify, truncate_slug'), `the evidence lines are shown (got ${evidence})`);
    const contracts = await page.locator('[data-testid="hidden-contract"]').evaluateAll((items) => items.map((i) => i.dataset.name));
    check(JSON.stringify(contracts) === '["truncate_slug"]', `the task's one hidden contract is truncate_slug; separator is told (got ${contracts})`);
    const contract = await page.locator('[data-testid="hidden-contract"]').textContent();
    check(contract.includes('textkit.slug.truncate_slug') && contract.includes('tests/test_slug.py:13'), `the contract says where the tests use it (got ${contract})`);
    log('task: statement, hidden contracts, hint, definition at R and evidence shown');

    step = 'drop';
    await card('truncate_slug').locator('[data-testid="identifier-note"]').fill('the name is the answer');
    await card('truncate_slug').locator('button[data-action="drop"]').click();
    await page.waitForSelector('[data-testid="identifier"][data-name="truncate_slug"][data-verdict="drop"]');
    const curated = await page.locator('[data-testid="hint-curated"]').textContent();
    check(!curated.includes('truncate_slug') && curated.includes('parameter `separator`'), `the curated hint lost truncate_slug (got ${curated})`);
    check((await row('acme__textkit-1').locator('[data-testid="review-state"]').textContent()).includes('1 dropped'), 'the list shows the drop');
    await shot('dropped');
    log('dropped truncate_slug with a note; the curated hint lost it');

    step = 'reload';
    check(page.url().includes('task=acme__textkit-1'), `the address names the task (${page.url()})`);
    await page.reload();
    await listLoaded(5);
    await page.waitForSelector('[data-testid="identifier"][data-name="truncate_slug"][data-verdict="drop"]');
    const note = await card('truncate_slug').locator('[data-testid="identifier-note"]').inputValue();
    check(note === 'the name is the answer', `the note came back (got ${note})`);
    check(!(await page.locator('[data-testid="hint-curated"]').textContent()).includes('truncate_slug'), 'still dropped after the reload');
    check((await card('separator').getAttribute('data-verdict')) === '', 'the other identifier is undecided');
    await card('truncate_slug').scrollIntoViewIfNeeded();
    await shot('reloaded');
    log('reloaded: the decision and its note are kept');

    step = 'keyboard';
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    const order = await page.locator('tr[data-testid="task-row"]').evaluateAll((rows) => rows.map((r) => r.dataset.id));
    const at = order.indexOf('acme__textkit-1');
    await page.keyboard.press('j');
    await page.waitForSelector(`[data-testid="task-title"]:text("${order[at + 1] ?? order[at]}")`);
    await page.keyboard.press('k');
    await page.waitForSelector('[data-testid="task-title"]:text("acme__textkit-1")');
    await page.keyboard.press('r');
    await page.waitForFunction(() => document.querySelector('#progress').textContent === '1/5 reviewed');
    await page.locator('[data-testid="filter-unreviewed"]').check();
    await page.waitForFunction(() => document.querySelectorAll('tr[data-testid="task-row"]').length === 4);
    await page.locator('[data-testid="filter-unreviewed"]').uncheck();
    await page.keyboard.press('/');
    await page.keyboard.type('jsonlite');
    await page.waitForFunction(() => document.querySelectorAll('tr[data-testid="task-row"]').length === 2);
    log('keyboard: j/k move, r marks reviewed, / searches; the unreviewed filter hides the reviewed task');
    await page.keyboard.press('Escape');

    step = 'errors';
    check(pageErrors.length === 0, `the page reported errors: ${pageErrors.join('; ')}`);
}

let status = 0;
try {
    browser = await launch(chromium, args.chromium, 'review');
    page = browser.page;
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
        if (m.type() === 'error') pageErrors.push(m.text());
    });
    if (args.timing) await timing();
    else await review();
    log('passed');
} catch (e) {
    status = 1;
    console.error(`step ${step} failed: ${e instanceof StepFailure ? e.message : e.stack}`);
    if (page) await shot('failure').catch(() => {});
} finally {
    await browser?.close();
}
process.exit(status);
