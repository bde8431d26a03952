// The real extension bundle (dist/extension.js, `npm run build` first) activated
// in plain Node against a fake `vscode` module (test/fake-vscode.ts), driving the
// real vscode-languageclient and the real `hintlens lsp` on the task repository.
// It covers what the wire test cannot: the extension's own code — server
// lookup, client options and middleware, the status item, the commands and
// the code lens round trip through the client's converters.
//
// Server: $HINTLENS_SERVER, else ../../target/debug/hintlens; skipped only when
// that file does not exist.

import assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { type FakeVscode, Position, type StatusBarItem, type TextDocument, createFakeVscode } from './fake-vscode';

const PACKAGE_DIR = path.resolve(__dirname, '..', '..');
// A relative $HINTLENS_SERVER is taken from where `npm run` was invoked.
const SERVER = process.env.HINTLENS_SERVER
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), process.env.HINTLENS_SERVER)
    : path.resolve(PACKAGE_DIR, '..', '..', 'target', 'debug', 'hintlens');
const MAKE_REPO = path.resolve(PACKAGE_DIR, '..', 'test-fixtures', 'make-task-repo.sh');
const BUNDLE = path.join(PACKAGE_DIR, 'dist', 'extension.js');
const SKIP = !fs.existsSync(SERVER)
    ? `server binary ${SERVER} does not exist: build it with \`cargo build -p hintlens-cli\` or set HINTLENS_SERVER`
    : !fs.existsSync(BUNDLE)
      ? `${BUNDLE} does not exist: run \`npm run build\` first`
      : false;

const DEADLINE_MS = 90_000;

async function until<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, fake: FakeVscode, ms = DEADLINE_MS): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
        const v = await fn();
        if (v) return v;
        // No test here expects an error popup: once one shows, waiting longer will not help.
        const errors = fake.messages.filter((m) => m.level === 'error');
        if (errors.length > 0) {
            assert.fail(`while waiting for ${what}, VS Code would have shown errors: ${JSON.stringify(errors)}\n--- output channel (tail):\n${fake.log.slice(-30).join('\n')}`);
        }
        if (Date.now() > deadline) {
            assert.fail(`timed out after ${ms} ms waiting for ${what}\n--- output channel (tail):\n${fake.log.slice(-30).join('\n')}`);
        }
        await new Promise((r) => setTimeout(r, 100));
    }
}

function defaultsFromPackageJson(): Record<string, unknown> {
    const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
    const props = pkg.contributes.configuration.properties as Record<string, { default?: unknown }>;
    return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, v.default ?? null]));
}

function hoverText(hover: any): string {
    if (!hover) return '';
    return hover.contents.map((c: any) => (typeof c === 'string' ? c : (c.value ?? ''))).join('\n');
}

function positionOf(doc: TextDocument, word: string, nth: number): Position {
    let seen = 0;
    for (let line = 0; line < doc.lineCount; line++) {
        for (const m of doc.lineAt(line).text.matchAll(new RegExp(`\\b${word}\\b`, 'g'))) {
            if (seen++ === nth) return new Position(line, m.index! + 2);
        }
    }
    throw new Error(`${word} #${nth} not found`);
}

interface Session {
    repo: string;
    fake: FakeVscode;
    ext: { activate(ctx: unknown): Promise<void>; deactivate(): Promise<void> };
    testDoc: TextDocument;
    codeDoc: TextDocument;
    status(): StatusBarItem | undefined;
    stop(): Promise<void>;
}

/** A fresh task repository, a fresh fake VS Code, and the bundle loaded anew and activated in it. */
async function startSession(prepare: (repo: string) => void = () => {}): Promise<Session> {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'hintlens-ext-'));
    cp.execFileSync('bash', [MAKE_REPO, repo], { stdio: 'inherit' });
    prepare(repo);
    const fake = createFakeVscode({ workspaceRoot: repo, defaults: defaultsFromPackageJson() });
    const uninstall = fake.install();
    const savedEnv = process.env.HINTLENS_SERVER;
    process.env.HINTLENS_SERVER = SERVER; // lookup step 1
    delete require.cache[BUNDLE]; // so that the bundle binds to this fake
    const ext = require(BUNDLE);
    const testDoc = fake.openDocument(path.join(repo, 'tests', 'test_text.py'), 'python');
    const codeDoc = fake.openDocument(path.join(repo, 'pkg', 'text.py'), 'python');
    const extensionPath = fs.mkdtempSync(path.join(os.tmpdir(), 'hintlens-ext-install-'));
    await ext.activate({ subscriptions: [], extensionPath, extensionUri: undefined });
    return {
        repo,
        fake,
        ext,
        testDoc,
        codeDoc,
        status: () => fake.statusItems.find((i) => i.id === 'hintlens.status'),
        async stop() {
            try {
                await ext.deactivate();
            } finally {
                uninstall();
                if (savedEnv === undefined) delete process.env.HINTLENS_SERVER;
                else process.env.HINTLENS_SERVER = savedEnv;
                fs.rmSync(repo, { recursive: true, force: true });
                fs.rmSync(extensionPath, { recursive: true, force: true });
            }
        },
    };
}

async function untilReady(s: Session): Promise<StatusBarItem> {
    return until(
        'the status item to say ready',
        () => {
            const text = s.status()?.text ?? '';
            if (text.startsWith('$(error)')) assert.fail(`status: ${text} — ${String(s.status()?.tooltip)}`);
            return text.startsWith('$(check)') && s.status();
        },
        s.fake,
    );
}

/** Runs `hintlens.showHints` with these arguments; returns the document it opened. */
async function showHints(s: Session, ...args: unknown[]): Promise<string> {
    const before = s.fake.opened.length;
    await s.fake.commands.get('hintlens.showHints')!(...args);
    assert.equal(s.fake.opened.length, before + 1, `no document opened; messages: ${JSON.stringify(s.fake.messages)}`);
    return s.fake.opened.at(-1)!.content ?? '';
}

if (SKIP) {
    test('extension bundle against hintlens lsp', { skip: SKIP }, () => {});
} else {
    describe('extension bundle in a fake VS Code against hintlens lsp', { timeout: 240_000 }, () => {
        let session: Session;
        let fake: FakeVscode;
        let testDoc: TextDocument;
        let codeDoc: TextDocument;
        const status = () => session.status();

        before(async () => {
            session = await startSession();
            ({ fake, testDoc, codeDoc } = session);
        });
        after(() => session?.stop());

        test('activation registers the commands and finds the server through HINTLENS_SERVER', () => {
            assert.ok(fake.commands.has('hintlens.showHints'));
            assert.ok(fake.commands.has('hintlens.restartServer'));
            assert.ok(
                fake.log.some((l) => l.includes(`using ${SERVER}`) && l.includes('from env')),
                fake.log.join('\n'),
            );
            assert.deepEqual(fake.messages.filter((m) => m.level === 'error'), []);
        });

        test('status item: indexing…, then ready with the number of hints', async () => {
            const item = await untilReady(session);
            assert.equal(item.text, '$(check) hintlens: 4 hints');
            assert.equal(item.command, 'hintlens.showHints');
            assert.ok(item.visible);
        });

        test('hover through the client: slugify crosses code → test', async () => {
            const hover = await fake.provider('hover', testDoc).provideHover(testDoc, positionOf(testDoc, 'slugify', 1), fake.tokenSource().token);
            const text = hoverText(hover);
            assert.match(text, /slugify/i, JSON.stringify(hover));
            assert.match(text, /code\s*(->|→)\s*test/i, JSON.stringify(hover));
        });

        test('clicking the hint lens opens the hint block beside the editor', async () => {
            const provider = fake.provider('codeLens', codeDoc);
            assert.ok(provider, 'no code lens provider registered for pkg/text.py');
            const lenses = await until(
                'a hint… lens',
                async () => {
                    const ls = (await provider.provideCodeLenses(codeDoc, fake.tokenSource().token)) ?? [];
                    return ls.some((l: any) => l.command?.title.startsWith('hint')) && ls;
                },
                fake,
            );
            const lens = lenses.find((l: any) => l.command?.title.startsWith('hint'));
            assert.equal(lens.command.command, 'hintlens.showHints');
            const before = fake.opened.length;
            // What VS Code does on a click: run the lens's command with its arguments.
            await fake.commands.get(lens.command.command)!(...(lens.command.arguments ?? []));
            assert.equal(fake.opened.length, before + 1, `no document opened; messages: ${JSON.stringify(fake.messages)}`);
            const doc = fake.opened.at(-1)!;
            assert.equal(doc.language, 'markdown');
            assert.match(doc.content ?? '', /slugify/);
            assert.match(doc.content ?? '', /^<!-- hintlens: defuse \+ declaration; 4 identifiers -->/);
            assert.equal((fake.shown.at(-1)!.options as { viewColumn?: number }).viewColumn, -2 /* Beside */);
        });

        test('hintlens: Show hint block (palette) asks hintlens/hints', async () => {
            const before = fake.opened.length;
            await fake.commands.get('hintlens.showHints')!();
            assert.equal(fake.opened.length, before + 1, JSON.stringify(fake.messages));
            assert.match(fake.opened.at(-1)!.content ?? '', /def slugify/);
        });

        test('setting hintlens.selection: the status item counts the new selection', async () => {
            // The status is asked for after the server has the new settings, not before
            // (seen in code-server: it kept saying 3 hints once the lenses were gone).
            await fake.setSetting('hintlens.selection', 'empty');
            await until('the status item to say 0 hints', () => status()?.text === '$(check) hintlens: 0 hints', fake, 20_000);
            await fake.setSetting('hintlens.selection', undefined);
            await until('the status item to say 4 hints again', () => status()?.text === '$(check) hintlens: 4 hints', fake, 20_000);
        });

        test('setting hintlens.projection reaches the server (didChangeConfiguration)', async () => {
            await fake.setSetting('hintlens.projection', 'name');
            // Lenses carry the server's configured projection; run one to see it.
            const text = await until(
                'a lens showing the name projection',
                async () => {
                    const lenses = (await fake.provider('codeLens', codeDoc).provideCodeLenses(codeDoc, fake.tokenSource().token)) ?? [];
                    const lens = lenses.find((l: any) => l.command?.title.startsWith('hint'));
                    if (!lens) return false;
                    const before = fake.opened.length;
                    await fake.commands.get(lens.command.command)!(...(lens.command.arguments ?? []));
                    const content = fake.opened.length > before ? (fake.opened.at(-1)!.content ?? '') : '';
                    return content.includes('defuse + name') && content;
                },
                fake,
                20_000,
            );
            assert.match(text, /slugify/);
            assert.doesNotMatch(text, /def slugify/);
            await fake.setSetting('hintlens.projection', undefined);
        });

        test('setting hintlens.statement makes the server publish diagnostics', async () => {
            await fake.setSetting('hintlens.statement', 'task.md');
            const found = await until(
                'a hintlens diagnostic about slugify',
                () => {
                    const all = [...fake.diagnostics.values()].flatMap((m) => [...m.values()].flat());
                    const hits = all.filter((d) => d.source === 'hintlens' && /slugify/.test(d.message));
                    return hits.length > 0 && hits;
                },
                fake,
                30_000,
            );
            for (const d of found) assert.equal(d.severity, 2 /* vscode Information */);
        });

        test('(what the fake vscode module did not model)', (t) => {
            t.diagnostic(`unmodelled vscode API touched: ${[...fake.missing].sort().join(', ') || 'none'}`);
        });

        test('hintlens: Restart server comes back ready', async () => {
            await fake.commands.get('hintlens.restartServer')!();
            await until('ready after restart', () => status()?.text.startsWith('$(check)') && status(), fake);
            // Nor did any settings the extension sent draw a warning (window/showMessage → a warning popup).
            assert.deepEqual(fake.messages.filter((m) => m.level !== 'info'), []);
        });
    });

    describe('extension: .hintlens.toml decides what the user did not set', { timeout: 240_000 }, () => {
        let session: Session;
        before(async () => {
            session = await startSession((repo) => fs.writeFileSync(path.join(repo, '.hintlens.toml'), 'projection = "name"\n'));
            await untilReady(session);
        });
        after(() => session?.stop());

        test('no user setting: the projection of the file applies (the package.json default is not sent)', async () => {
            const text = await showHints(session);
            assert.match(text, /^<!-- hintlens: defuse \+ name;/, text);
            assert.match(text, /slugify/);
            assert.doesNotMatch(text, /def slugify/);
        });

        test('a user setting wins over the file', async () => {
            await session.fake.setSetting('hintlens.projection', 'declaration');
            const text = await showHints(session);
            assert.match(text, /^<!-- hintlens: defuse \+ declaration;/, text);
            assert.match(text, /def slugify/);
        });
    });
}
