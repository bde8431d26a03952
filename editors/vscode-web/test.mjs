// Drives the hintlens extension inside real VS Code (code-server) from headless Chromium.
// scripts/test-vscode-web installs everything, builds and installs the .vsix, starts
// code-server on the fixture task repository and runs this with:
//
//   node test.mjs --url URL --repo DIR --out DIR [--chromium PATH]
//
// Steps (each with its own deadline; a screenshot of each goes to --out as STEP.png):
//   workbench  VS Code is up with the task repository open
//   lens       pkg/text.py: a `hint · used by …` code lens sits above `def slugify`
//   hover      tests/test_text.py: its `uses 1 new identifier` lens, and hovering the call
//              `slugify(…)` shows the hint (code → test, the declaration)
//   hints      the command "hintlens: Show hint block" opens the hint block
//   selection  hintlens.selection set to `empty` in the Settings editor: the lens goes, the
//              status bar item says 0 hints
// Exits 0 only when every step passed; a failing step is named, with what the page showed,
// and screenshotted as failure-STEP.png.

import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { chromium } from 'playwright-core';

import { StepFailure, clock, launch, requireArgs } from '../../tests/browser/chromium.mjs';

const { values: args } = parseArgs({
    options: {
        url: { type: 'string' },
        repo: { type: 'string' },
        out: { type: 'string' },
        chromium: { type: 'string', default: '/usr/bin/chromium' },
    },
});
requireArgs(args, ['url', 'repo', 'out'], 'node test.mjs --url URL --repo DIR --out DIR [--chromium PATH]');

const { elapsed, log } = clock();

/** Polls `probe` until it returns a truthy value; throws `what` with the last detail after `ms`. */
async function until(what, ms, probe, detail = async () => '') {
    const deadline = Date.now() + ms;
    let lastError;
    for (;;) {
        try {
            const v = await probe();
            if (v) return v;
        } catch (e) {
            lastError = e;
        }
        // An error the extension showed (no server, a failed request) will not go away by waiting.
        const errors = await hintlensErrors().catch(() => []);
        if (errors.length > 0) {
            throw new StepFailure(`${what}: VS Code shows an error instead: ${JSON.stringify(errors)}\n  the page showed: ${await detail().catch(() => '')}`);
        }
        if (Date.now() > deadline) {
            const seen = await detail().catch((e) => `(could not read the page: ${e.message})`);
            throw new StepFailure(
                `${what}: not seen within ${ms / 1000}s` +
                    (seen ? `\n  the page showed: ${seen}` : '') +
                    (lastError ? `\n  last error: ${lastError.message.split('\n')[0]}` : ''),
            );
        }
        await new Promise((r) => setTimeout(r, 250));
    }
}

/** Text as VS Code renders it (non-breaking spaces in editor lines). */
const norm = (s) => s.replace(/\u00a0/g, ' ');

let browser;
let context;
let page;
const results = [];

async function shot(name) {
    const file = path.join(args.out, `${name}.png`);
    await page.screenshot({ path: file });
    return file;
}

async function step(name, fn) {
    const t0 = Date.now();
    log(`step ${name}: …`);
    try {
        const detail = await fn();
        const file = await shot(name);
        results.push({ name, ok: true });
        log(`step ${name}: passed in ${((Date.now() - t0) / 1000).toFixed(1)}s${detail ? ` (${detail})` : ''} → ${file}`);
    } catch (e) {
        results.push({ name, ok: false });
        let file = '';
        try {
            file = await shot(`failure-${name}`);
        } catch {}
        log(`step ${name}: FAILED after ${((Date.now() - t0) / 1000).toFixed(1)}s${file ? ` (screenshot ${file})` : ''}`);
        throw e;
    }
}

// --- page helpers -------------------------------------------------------------------------

const activeEditor = () => page.locator('.editor-group-container.active .editor-instance .monaco-editor').first();

/** The text lines of the active editor (all of them for the short files here). */
async function activeEditorText() {
    const lines = await activeEditor().locator('.view-lines .view-line').evaluateAll((els) =>
        els
            .map((el) => ({ top: parseFloat(el.style.top) || 0, text: el.textContent ?? '' }))
            .sort((a, b) => a.top - b.top)
            .map((l) => l.text),
    );
    return norm(lines.join('\n'));
}

async function lensTitles() {
    const titles = await activeEditor().locator('.codelens-decoration').allTextContents();
    return titles.map(norm).map((t) => t.trim()).filter((t) => t !== '');
}

async function notifications() {
    const texts = await page.locator('.notifications-toasts .notification-list-item-message').allTextContents();
    return texts.map(norm);
}

/** Error notifications from the extension (`hintlens: …`). */
async function hintlensErrors() {
    const texts = await page
        .locator('.notifications-toasts .notification-list-item:has(.codicon-error) .notification-list-item-message')
        .allTextContents();
    return texts.map(norm).filter((t) => t.startsWith('hintlens'));
}

async function statusItem() {
    const items = await page.locator('.statusbar-item').allTextContents();
    return items.map(norm).find((t) => t.includes('hintlens')) ?? '(no hintlens status item)';
}

async function pageState() {
    const tab = await page
        .locator('.editor-group-container.active .tab.active')
        .first()
        .textContent({ timeout: 1000 })
        .catch(() => '(none)');
    return [
        `active tab: ${norm(tab ?? '').trim()}`,
        `lenses: ${JSON.stringify(await lensTitles().catch(() => []))}`,
        `status bar: ${await statusItem().catch(() => '?')}`,
        `notifications: ${JSON.stringify(await notifications().catch(() => []))}`,
    ].join('; ');
}

/** Runs a command from the palette (F1), by its title. */
async function runCommand(title) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${title}`);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ state: 'visible', timeout: 15_000 }).catch(async () => {
        const rows = await page.locator('.quick-input-list .monaco-list-row').allTextContents();
        throw new StepFailure(`the command palette has no "${title}"; it lists: ${JSON.stringify(rows.slice(0, 8))}`);
    });
    await page.keyboard.press('Enter');
}

/** Opens a workspace file by its relative path through Quick Open (Ctrl+P). */
async function openFile(rel) {
    const name = path.basename(rel);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget input.input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(rel);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: path.dirname(rel) }).filter({ hasText: name });
    await until(`Quick Open lists ${rel}`, 30_000, () => row.first().isVisible());
    await row.first().click();
    await until(
        `${rel} open in the editor`,
        30_000,
        async () => norm((await page.locator('.editor-group-container.active .tab.active').first().textContent()) ?? '').includes(name),
        pageState,
    );
    // The editor's text is on screen.
    await until(`${rel} rendered`, 15_000, async () => (await activeEditorText()).trim() !== '', pageState);
}

// --- the steps ----------------------------------------------------------------------------

async function main() {
    fs.mkdirSync(args.out, { recursive: true });
    log(`chromium ${args.chromium}; code-server ${args.url}; repository ${args.repo}`);
    browser = await launch(chromium, args.chromium, 'vscode');
    ({ context, page } = browser);
    // In the page: the box of the first occurrence of a word in an element's text, whatever
    // spans the tokenizer split it into.
    await context.addInitScript(() => {
        window.wordRect = (el, word) => {
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const i = node.textContent.indexOf(word);
                if (i < 0) continue;
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + word.length);
                const r = range.getBoundingClientRect();
                return { x: r.x, y: r.y, width: r.width, height: r.height };
            }
            return null;
        };
    });
    page.setDefaultTimeout(30_000);

    await step('workbench', async () => {
        const url = new URL(args.url);
        url.searchParams.set('folder', args.repo);
        await page.goto(url.toString(), { timeout: 60_000 });
        await page.locator('.monaco-workbench').waitFor({ state: 'visible', timeout: 90_000 });
        // The explorer lists the task repository.
        await until('the explorer lists pkg/ and tests/', 60_000, async () => {
            const rows = (await page.locator('.explorer-folders-view .monaco-list-row').allTextContents()).map(norm);
            return rows.some((r) => r.includes('pkg')) && rows.some((r) => r.includes('tests'));
        });
        return 'the task repository is open';
    });

    await step('lens', async () => {
        await openFile('pkg/text.py');
        // Activation (onLanguage:python), server lookup, indexing, then the lens.
        const title = await until(
            'a `hint · used by …` code lens in pkg/text.py (the extension activates on Python, starts hintlens lsp, indexes)',
            60_000,
            async () => (await lensTitles()).find((t) => /^hint · used by \d+ test lines?/.test(t)),
            pageState,
        );
        // It sits on the line above `def slugify`.
        const lens = activeEditor().locator('.codelens-decoration', { hasText: 'hint · used by' }).first();
        const def = activeEditor().locator('.view-line', { hasText: 'def slugify' }).first();
        const [lb, db] = [await lens.boundingBox(), await def.boundingBox()];
        if (!lb || !db || !(lb.y < db.y && db.y - lb.y < 3 * db.height)) {
            throw new StepFailure(`the lens "${title}" is not right above \`def slugify\` (lens ${JSON.stringify(lb)}, line ${JSON.stringify(db)})`);
        }
        return `"${title}" above def slugify; status bar: ${await statusItem()}`;
    });

    await step('hover', async () => {
        await openFile('tests/test_text.py');
        await until(
            'the `uses 1 new identifier` lens in tests/test_text.py',
            30_000,
            async () => (await lensTitles()).includes('uses 1 new identifier'),
            pageState,
        );
        // The call in `assert slugify("Hello World") == …` (the first `slugify` is the import).
        const line = activeEditor().locator('.view-line', { hasText: 'assert slugify("Hello World") ==' }).first();
        await line.waitFor({ state: 'visible', timeout: 15_000 });
        const wordBox = () => line.evaluate((el) => wordRect(el, 'slugify'));
        const hover = page.locator('.monaco-hover:not(.hidden)').filter({ hasText: 'Crosses the code–test boundary' });
        const text = await until(
            'a hover on the call `slugify(…)` saying it crosses the code–test boundary',
            45_000,
            async () => {
                const box = await wordBox();
                if (!box) return undefined;
                // Moving away and back re-triggers the hover if the server was still busy.
                await page.mouse.move(box.x + box.width / 2, box.y + box.height * 3);
                await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
                await hover.first().waitFor({ state: 'visible', timeout: 4_000 });
                return norm((await hover.first().textContent()) ?? '');
            },
            async () => {
                const any = await page.locator('.monaco-hover:not(.hidden)').allTextContents();
                return `hovers: ${JSON.stringify(any.map(norm))}; ${await pageState()}`;
            },
        );
        for (const want of ['slugify', 'code → test', 'pkg/text.py', 'def slugify(title, sep="-")']) {
            if (!text.includes(want)) throw new StepFailure(`the hover lacks ${JSON.stringify(want)}: ${JSON.stringify(text)}`);
        }
        return `hover: ${JSON.stringify(text.slice(0, 120))}…`;
    });

    await step('hints', async () => {
        await page.mouse.move(5, 5);
        await runCommand('hintlens: Show hint block');
        const text = await until(
            'the hint block (an untitled markdown editor) after "hintlens: Show hint block"',
            30_000,
            async () => {
                const t = await activeEditorText();
                return t.includes('<!-- hintlens: defuse + declaration') ? t : undefined;
            },
            async () => `editor text: ${JSON.stringify(await activeEditorText().catch(() => ''))}; ${await pageState()}`,
        );
        for (const want of ['slugify', 'pkg/text.py', 'formatBytes', 'SetLimit']) {
            if (!text.includes(want)) throw new StepFailure(`the hint block lacks ${JSON.stringify(want)}:\n${text}`);
        }
        return `${text.split('\n').length} lines: ${JSON.stringify(text.split('\n')[0])}`;
    });

    await step('selection', async () => {
        // pkg/text.py in the first editor group, its lens on screen; then, as a user would, the
        // Settings editor in the second group, the hintlens.selection dropdown, `empty`.
        await runCommand('View: Focus First Editor Group');
        await openFile('pkg/text.py');
        const firstGroup = page.locator('.editor-group-container').first();
        const firstLenses = async () =>
            (await firstGroup.locator('.editor-instance .monaco-editor .codelens-decoration').allTextContents()).map(norm);
        await until('the `hint · …` lens in pkg/text.py before the change', 30_000, async () =>
            (await firstLenses()).some((t) => t.startsWith('hint')), pageState);
        // The second group (the hint block's) takes the Settings editor.
        await page.locator('.editor-group-container').nth(1).locator('.tab.active').click();
        await runCommand('Preferences: Open User Settings');
        const search = page.locator('.settings-editor .suggest-input-container textarea, .settings-editor .search-container input').first();
        await search.waitFor({ state: 'visible', timeout: 20_000 });
        await search.fill('hintlens.selection');
        const select = page.locator('.settings-editor .setting-item-contents', { hasText: 'Selection policy' }).locator('select');
        await until('the hintlens.selection dropdown in the Settings editor', 20_000, () => select.first().isVisible(), pageState);
        await select.first().selectOption('empty');
        const titles = await until(
            'the `hint · used by …` lens in pkg/text.py gone once hintlens.selection is `empty`',
            60_000,
            async () => {
                const t = await firstLenses();
                return t.some((x) => x.startsWith('hint')) ? undefined : t;
            },
            pageState,
        );
        const status = await until('the status bar item saying `hintlens: 0 hints`', 30_000, async () => {
            const t = await statusItem();
            return t.includes('hintlens: 0 hints') ? t : undefined;
        }, pageState);
        return `lenses in pkg/text.py now ${JSON.stringify(titles)}; status bar: ${status.trim()}`;
    });
}

let status = 0;
try {
    await main();
} catch (e) {
    status = 1;
    console.error(`\nFAILED: ${e instanceof StepFailure ? e.message : e.stack}`);
} finally {
    await browser?.close();
}
const passed = results.filter((r) => r.ok).length;
console.log(`\nvscode-web: ${results.map((r) => `${r.name} ${r.ok ? 'ok' : 'FAILED'}`).join(', ')} (${elapsed()})`);
console.log(`${passed} passed, ${status === 0 ? 0 : 1} failed`);
process.exit(status);
