// What the two browser tests (editors/vscode-web, tests/review-web) share: the flags this
// machine's Chromium needs, the failure type a step throws, a clock for the log, and the
// launch. It imports nothing outside Node: each test passes its own playwright-core
// `chromium`, installed next to that test by its script.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The flags Debian's Chromium needs here: no sandbox as root, no GPU, no network but loopback. */
export const CHROMIUM_ARGS = [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
];

/** A check that failed: its message says what was expected and what the page showed (no stack). */
export class StepFailure extends Error {}

/** Seconds since the test started, and a log line stamped with them. */
export function clock() {
    const started = Date.now();
    const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
    const log = (msg) => console.log(`[${elapsed().padStart(6)}] ${msg}`);
    return { elapsed, log };
}

/** Exits 2 with the usage line when one of `names` is missing from the parsed `args`. */
export function requireArgs(args, names, usage) {
    for (const k of names) {
        if (!args[k]) {
            console.error(`usage: ${usage} (missing --${k})`);
            process.exit(2);
        }
    }
}

/**
 * Starts headless Chromium at `executablePath` with a fresh profile (named after `name`) and
 * returns its context, first page and a `close` that also removes the profile.
 */
export async function launch(chromium, executablePath, name) {
    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), `hintlens-${name}-chromium-`));
    let context;
    const close = async () => {
        await context?.close().catch(() => {});
        fs.rmSync(userDataDir, { recursive: true, force: true });
    };
    try {
        context = await chromium.launchPersistentContext(userDataDir, {
            executablePath,
            headless: true,
            args: CHROMIUM_ARGS,
            viewport: { width: 1400, height: 900 },
        });
    } catch (e) {
        await close();
        throw e;
    }
    const page = context.pages()[0] ?? (await context.newPage());
    return { context, page, close };
}
