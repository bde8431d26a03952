// Wire-level test: drives the real `hintlens lsp` over stdio with vscode-jsonrpc,
// the protocol library under vscode-languageclient, speaking what the VS Code
// extension speaks.  It runs on the small task repository that
// editors/test-fixtures/make-task-repo.sh creates.
//
// Server binary: $HINTLENS_SERVER, else ../../target/debug/hintlens (from
// editors/vscode).  The suite is skipped only when that file does not exist.

import assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';

import {
    type MessageConnection,
    StreamMessageReader,
    StreamMessageWriter,
    createMessageConnection,
} from 'vscode-jsonrpc/node';

// out/test/wire.test.js → editors/vscode
const PACKAGE_DIR = path.resolve(__dirname, '..', '..');
// A relative $HINTLENS_SERVER is taken from where `npm run` was invoked.
const SERVER = process.env.HINTLENS_SERVER
    ? path.resolve(process.env.INIT_CWD ?? process.cwd(), process.env.HINTLENS_SERVER)
    : path.resolve(PACKAGE_DIR, '..', '..', 'target', 'debug', 'hintlens');
const MAKE_REPO = path.resolve(PACKAGE_DIR, '..', 'test-fixtures', 'make-task-repo.sh');
const SKIP = fs.existsSync(SERVER)
    ? false
    : `server binary ${SERVER} does not exist: build it with \`cargo build -p hintlens-cli\` or set HINTLENS_SERVER`;

const REQUEST_TIMEOUT_MS = 30_000;
const INDEXING_DEADLINE_MS = 90_000;

interface Position {
    line: number;
    character: number;
}
interface Range {
    start: Position;
    end: Position;
}
interface Command {
    title: string;
    command: string;
    arguments?: unknown[];
}
interface CodeLens {
    range: Range;
    command?: Command;
    data?: unknown;
}
interface Diagnostic {
    range: Range;
    severity?: number;
    source?: string;
    message: string;
}

const SETTINGS = { base: 'HEAD', statement: null as string | null, selection: 'defuse', projection: 'declaration' };

/** One running `hintlens lsp` on a fresh task repository. */
class Session {
    readonly repo: string;
    readonly proc: cp.ChildProcessWithoutNullStreams;
    readonly conn: MessageConnection;
    readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
    private stderr = '';
    readonly progress: unknown[] = [];
    readonly shownMessages: Array<{ type: number; message: string }> = [];
    readonly diagnostics = new Map<string, Diagnostic[]>();
    capabilities: Record<string, unknown> = {};

    constructor(readonly settings: typeof SETTINGS) {
        this.repo = fs.mkdtempSync(path.join(os.tmpdir(), 'hintlens-wire-'));
        cp.execFileSync('bash', [MAKE_REPO, this.repo], { stdio: 'inherit' });

        this.proc = cp.spawn(SERVER, ['lsp'], { cwd: this.repo, stdio: ['pipe', 'pipe', 'pipe'] });
        this.proc.stderr.setEncoding('utf8');
        this.proc.stderr.on('data', (d: string) => {
            this.stderr = (this.stderr + d).slice(-8000);
        });
        this.exited = new Promise((resolve) => this.proc.on('close', (code, signal) => resolve({ code, signal })));
        // A server that dies early closes its stdin under us.
        this.proc.stdin.on('error', () => {});
        this.proc.on('error', (e) => {
            this.stderr += `\n[spawn error] ${e.message}`;
        });

        // Writes go through a PassThrough so a server that died early cannot make
        // vscode-jsonrpc's writer throw out of band; the `died` race reports it instead.
        const toServer = new PassThrough();
        toServer.pipe(this.proc.stdin);
        this.conn = createMessageConnection(new StreamMessageReader(this.proc.stdout), new StreamMessageWriter(toServer));
        // What a client must answer or accept (vscode-languageclient does the same).
        this.conn.onRequest('window/workDoneProgress/create', () => null);
        this.conn.onRequest('client/registerCapability', () => null);
        this.conn.onRequest('client/unregisterCapability', () => null);
        this.conn.onRequest('workspace/codeLens/refresh', () => null);
        this.conn.onRequest('workspace/diagnostic/refresh', () => null);
        this.conn.onRequest('window/showMessageRequest', () => null);
        this.conn.onRequest('workspace/configuration', (p: { items: Array<{ section?: string }> }) =>
            p.items.map((item) => {
                if (item.section === 'hintlens') return this.settings;
                const key = item.section?.startsWith('hintlens.') ? item.section.slice('hintlens.'.length) : undefined;
                return key !== undefined && key in this.settings ? this.settings[key as keyof typeof SETTINGS] : null;
            }),
        );
        this.conn.onNotification('$/progress', (p: unknown) => this.progress.push(p));
        this.conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[] }) =>
            this.diagnostics.set(p.uri, p.diagnostics),
        );
        this.conn.onNotification('window/logMessage', () => {});
        this.conn.onNotification('window/showMessage', (p: { type: number; message: string }) => this.shownMessages.push(p));
        this.conn.onNotification('telemetry/event', () => {});
        this.conn.onError(() => {});
        this.conn.listen();
    }

    uri(rel: string): string {
        return pathToFileURL(path.join(this.repo, rel)).href;
    }

    text(rel: string): string {
        return fs.readFileSync(path.join(this.repo, rel), 'utf8');
    }

    /** Server stderr, for failure messages. */
    context(): string {
        return `\n--- server: ${SERVER}\n--- repo: ${this.repo}\n--- server stderr (tail):\n${this.stderr || '(empty)'}`;
    }

    async request<R>(method: string, params: unknown): Promise<R> {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
            timer = setTimeout(
                () => reject(new Error(`${method}: no answer within ${REQUEST_TIMEOUT_MS} ms${this.context()}`)),
                REQUEST_TIMEOUT_MS,
            );
        });
        const died = this.exited.then(({ code, signal }) => {
            throw new Error(`${method}: the server exited (code ${code}, signal ${signal}) before answering${this.context()}`);
        });
        try {
            return await Promise.race([this.conn.sendRequest<R>(method, params), timeout, died]);
        } catch (e) {
            const message = e instanceof Error ? e.message : String(e);
            if (message.includes('--- server stderr')) throw e;
            // Give the process a moment to close so its stderr (the real reason) is in the message.
            await Promise.race([this.exited, new Promise((r) => setTimeout(r, 500))]);
            throw new Error(`${method} failed: ${message}${this.context()}`);
        } finally {
            clearTimeout(timer);
        }
    }

    async initialize(): Promise<void> {
        const rootUri = pathToFileURL(this.repo).href;
        const result = await this.request<{ capabilities: Record<string, unknown> }>('initialize', {
            processId: process.pid,
            clientInfo: { name: 'hintlens-wire-test', version: '0' },
            rootUri,
            rootPath: this.repo,
            workspaceFolders: [{ uri: rootUri, name: path.basename(this.repo) }],
            initializationOptions: this.settings,
            capabilities: {
                window: { workDoneProgress: true },
                workspace: { configuration: true, workspaceFolders: true, codeLens: { refreshSupport: true } },
                textDocument: {
                    synchronization: { dynamicRegistration: false, didSave: true },
                    hover: { contentFormat: ['markdown', 'plaintext'] },
                    codeLens: { dynamicRegistration: false },
                    publishDiagnostics: { relatedInformation: true },
                },
                general: { positionEncodings: ['utf-16'] },
            },
        });
        this.capabilities = result.capabilities ?? {};
        await this.conn.sendNotification('initialized', {});
        // What the extension pushes after start (synchronize.configurationSection + its middleware).
        await this.conn.sendNotification('workspace/didChangeConfiguration', { settings: { hintlens: this.settings } });
        for (const [rel, languageId] of [
            ['pkg/text.py', 'python'],
            ['tests/test_text.py', 'python'],
            ['store/store.go', 'go'],
            ['store/store_test.go', 'go'],
            ['web/format.ts', 'typescript'],
            ['web/format.test.ts', 'typescript'],
        ]) {
            await this.conn.sendNotification('textDocument/didOpen', {
                textDocument: { uri: this.uri(rel!), languageId, version: 1, text: this.text(rel!) },
            });
        }
    }

    /** Polls `hintlens/hints` until `indexing` is false; returns that answer. */
    async waitIndexed(): Promise<HintsAnswer> {
        const deadline = Date.now() + INDEXING_DEADLINE_MS;
        let last: unknown;
        for (;;) {
            last = await this.request('hintlens/hints', {});
            const a = last as Partial<HintsAnswer> | null;
            if (a && typeof a === 'object' && a.indexing === false) return a as HintsAnswer;
            if (Date.now() > deadline) {
                assert.fail(`still indexing after ${INDEXING_DEADLINE_MS} ms; last hintlens/hints answer: ${JSON.stringify(last)}${this.context()}`);
            }
            await new Promise((r) => setTimeout(r, 200));
        }
    }

    /** Code lenses of a file, resolved when the server resolves them lazily. */
    async codeLenses(rel: string): Promise<CodeLens[]> {
        const lenses = (await this.request<CodeLens[] | null>('textDocument/codeLens', { textDocument: { uri: this.uri(rel) } })) ?? [];
        const provider = this.capabilities.codeLensProvider as { resolveProvider?: boolean } | undefined;
        const out: CodeLens[] = [];
        for (const lens of lenses) {
            out.push(lens.command === undefined && provider?.resolveProvider ? await this.request<CodeLens>('codeLens/resolve', lens) : lens);
        }
        return out;
    }

    /** shutdown + exit; resolves with how the process ended. */
    async shutdown(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
        await this.request('shutdown', null);
        await this.conn.sendNotification('exit');
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`the server did not exit within 10 s of \`exit\`${this.context()}`)), 10_000);
        });
        try {
            return await Promise.race([this.exited, timeout]);
        } finally {
            clearTimeout(timer);
        }
    }

    dispose(): void {
        this.conn.dispose();
        if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
        fs.rmSync(this.repo, { recursive: true, force: true });
    }
}

interface HintsAnswer {
    text: string;
    identifiers: unknown[];
    indexing: boolean;
    selection: string;
    projection: string;
}

/** Position of the `nth` whole-word occurrence of `word` in `text`, a character inside the word. */
function positionOf(text: string, word: string, nth = 0): Position {
    const lines = text.split('\n');
    let seen = 0;
    for (let line = 0; line < lines.length; line++) {
        for (const m of lines[line]!.matchAll(new RegExp(`\\b${word}\\b`, 'g'))) {
            if (seen++ === nth) return { line, character: m.index! + 2 };
        }
    }
    throw new Error(`${word} #${nth} not found`);
}

function hoverText(hover: unknown): string {
    if (hover === null || typeof hover !== 'object') return '';
    const contents = (hover as { contents: unknown }).contents;
    const one = (c: unknown): string =>
        typeof c === 'string' ? c : c && typeof c === 'object' && 'value' in c ? String((c as { value: unknown }).value) : '';
    return Array.isArray(contents) ? contents.map(one).join('\n') : one(contents);
}

if (SKIP) {
    // One visibly skipped test (a skipped suite counts no test at all).
    test('hintlens lsp wire test', { skip: SKIP }, () => {});
} else {
    describe('hintlens lsp over stdio (vscode-jsonrpc)', { timeout: 180_000 }, () => {
        let s: Session;
        let indexed: HintsAnswer;

        before(async () => {
            s = new Session({ ...SETTINGS });
            await s.initialize();
            indexed = await s.waitIndexed();
        });
        after(() => s?.dispose());

        test('capabilities: hover, code lens, executeCommand hintlens.showHints', () => {
            const c = s.capabilities;
            assert.ok(c.hoverProvider, `no hoverProvider in ${JSON.stringify(c)}`);
            assert.ok(c.codeLensProvider, `no codeLensProvider in ${JSON.stringify(c)}`);
            const commands = (c.executeCommandProvider as { commands?: string[] } | undefined)?.commands ?? [];
            assert.ok(commands.includes('hintlens.showHints'), `executeCommandProvider.commands = ${JSON.stringify(commands)}`);
        });

        test('hintlens/hints answers the contract shape once indexed', () => {
            assert.equal(typeof indexed.text, 'string');
            assert.ok(Array.isArray(indexed.identifiers), `identifiers: ${JSON.stringify(indexed.identifiers)}`);
            assert.equal(indexed.selection, 'defuse');
            assert.equal(indexed.projection, 'declaration');
            assert.match(indexed.text, /slugify/, `hint block:\n${indexed.text}${s.context()}`);
        });

        test('hover on slugify in the test file says it crosses code → test', async () => {
            const rel = 'tests/test_text.py';
            const at = positionOf(s.text(rel), 'slugify', 1); // the call in test_slugify (0 is the import)
            const hover = await s.request('textDocument/hover', { textDocument: { uri: s.uri(rel) }, position: at });
            const text = hoverText(hover);
            assert.match(text, /slugify/i, `hover: ${JSON.stringify(hover)}${s.context()}`);
            assert.match(text, /code\s*(->|→)\s*test/i, `hover does not say code->test: ${JSON.stringify(hover)}`);
            assert.match(text, /\btest\b/i);
        });

        test('code lens above the selected definition: `hint · …` running hintlens.showHints', async () => {
            const lenses = await s.codeLenses('pkg/text.py');
            const hint = lenses.find((l) => l.command?.title.startsWith('hint'));
            assert.ok(hint, `no lens titled hint… on pkg/text.py: ${JSON.stringify(lenses)}${s.context()}`);
            assert.equal(hint.command!.command, 'hintlens.showHints');
            const defLine = positionOf(s.text('pkg/text.py'), 'slugify').line;
            assert.equal(hint.range.start.line, defLine, `lens should sit on the \`def slugify\` line (${defLine}): ${JSON.stringify(hint)}`);
        });

        test('code lens above the test function: `uses N new identifiers`', async () => {
            const lenses = await s.codeLenses('tests/test_text.py');
            const uses = lenses.find((l) => /^uses \d+ new identifiers?/.test(l.command?.title ?? ''));
            assert.ok(uses, `no \`uses N new identifiers\` lens on tests/test_text.py: ${JSON.stringify(lenses)}`);
            assert.equal(uses.command!.command, 'hintlens.showHints');
            assert.equal(uses.range.start.line, positionOf(s.text('tests/test_text.py'), 'test_slugify').line);
        });

        test('Go: hover on SetLimit in the test says it crosses code → test', async () => {
            const rel = 'store/store_test.go';
            const at = positionOf(s.text(rel), 'SetLimit'); // the call (`TestSetLimit` is another word)
            const hover = await s.request('textDocument/hover', { textDocument: { uri: s.uri(rel) }, position: at });
            const text = hoverText(hover);
            assert.match(text, /SetLimit/, `hover: ${JSON.stringify(hover)}${s.context()}`);
            assert.match(text, /code\s*(->|→)\s*test/i, `hover does not say code->test: ${JSON.stringify(hover)}`);
        });

        test('Go: a `hint · …` lens sits on the new method', async () => {
            const lenses = await s.codeLenses('store/store.go');
            const hint = lenses.find((l) => l.command?.title.startsWith('hint'));
            assert.ok(hint, `no lens titled hint… on store/store.go: ${JSON.stringify(lenses)}${s.context()}`);
            // Occurrence 0 is the doc comment; 1 the declaration.
            assert.equal(hint.range.start.line, positionOf(s.text('store/store.go'), 'SetLimit', 1).line);
        });

        test('TypeScript: hover on formatBytes in the test says it crosses code → test', async () => {
            const rel = 'web/format.test.ts';
            const at = positionOf(s.text(rel), 'formatBytes', 2); // the call: 0 is the import, 1 the test's title
            const hover = await s.request('textDocument/hover', { textDocument: { uri: s.uri(rel) }, position: at });
            const text = hoverText(hover);
            assert.match(text, /formatBytes/, `hover: ${JSON.stringify(hover)}${s.context()}`);
            assert.match(text, /code\s*(->|→)\s*test/i, `hover does not say code->test: ${JSON.stringify(hover)}`);
        });

        test('TypeScript: a `hint · …` lens sits on the new function', async () => {
            const lenses = await s.codeLenses('web/format.ts');
            const hint = lenses.find((l) => l.command?.title.startsWith('hint'));
            assert.ok(hint, `no lens titled hint… on web/format.ts: ${JSON.stringify(lenses)}${s.context()}`);
            assert.equal(hint.range.start.line, positionOf(s.text('web/format.ts'), 'formatBytes').line);
        });

        test('PHP: hover on shout in the test says it crosses code → test', async () => {
            const rel = 'tests/GreeterTest.php';
            const at = positionOf(s.text(rel), 'shout'); // the call (`testLoudly` names no method)
            const hover = await s.request('textDocument/hover', { textDocument: { uri: s.uri(rel) }, position: at });
            const text = hoverText(hover);
            assert.match(text, /shout/, `hover: ${JSON.stringify(hover)}${s.context()}`);
            assert.match(text, /code\s*(->|→)\s*test/i, `hover does not say code->test: ${JSON.stringify(hover)}`);
        });

        test('PHP: a `hint · …` lens sits on the new method', async () => {
            const lenses = await s.codeLenses('src/Greeter.php');
            const hint = lenses.find((l) => l.command?.title.startsWith('hint'));
            assert.ok(hint, `no lens titled hint… on src/Greeter.php: ${JSON.stringify(lenses)}${s.context()}`);
            assert.equal(hint.range.start.line, positionOf(s.text('src/Greeter.php'), 'function shout').line);
        });

        test('workspace/executeCommand hintlens.showHints returns the hint block', async () => {
            const result = await s.request<{ text?: unknown }>('workspace/executeCommand', { command: 'hintlens.showHints', arguments: [] });
            assert.ok(result && typeof result.text === 'string', `result: ${JSON.stringify(result)}${s.context()}`);
            assert.match(result.text, /slugify/);
        });

        test('a code lens command, executed as VS Code does on a click, returns the hint block', async () => {
            const hint = (await s.codeLenses('pkg/text.py')).find((l) => l.command?.title.startsWith('hint'));
            assert.ok(hint?.command);
            const result = await s.request<{ text?: unknown }>('workspace/executeCommand', {
                command: hint.command.command,
                arguments: hint.command.arguments ?? [],
            });
            assert.ok(result && typeof result.text === 'string', `result: ${JSON.stringify(result)}`);
            assert.match(result.text, /slugify/);
        });

        test('hintlens/hints honours a projection parameter', async () => {
            const r = await s.request<HintsAnswer>('hintlens/hints', { selection: 'defuse', projection: 'name' });
            assert.equal(r.projection, 'name');
            assert.equal(r.selection, 'defuse');
            assert.match(r.text, /slugify/);
            assert.doesNotMatch(r.text, /def slugify/, 'the name projection reveals no signature');
        });

        test('the contract settings draw no warning or error message', () => {
            const bad = s.shownMessages.filter((m) => m.type === 1 || m.type === 2);
            assert.deepEqual(bad, [], `window/showMessage: ${JSON.stringify(bad)}`);
        });

        test('shutdown, exit: the process ends with code 0', async () => {
            const { code, signal } = await s.shutdown();
            assert.equal(signal, null, `killed by ${signal}${s.context()}`);
            assert.equal(code, 0, `exit code ${code}${s.context()}`);
        });
    });

    describe('hintlens lsp diagnostics with a statement file', { timeout: 180_000 }, () => {
        let s: Session;
        before(async () => {
            s = new Session({ ...SETTINGS, statement: 'task.md' });
            await s.initialize();
            await s.waitIndexed();
        });
        after(() => s?.dispose());

        test('an information diagnostic (source hintlens) names slugify, which task.md does not mention', async () => {
            const deadline = Date.now() + 30_000;
            const matching = () =>
                [...s.diagnostics.values()].flat().filter((d) => d.source === 'hintlens' && /slugify/.test(d.message));
            while (matching().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
            const found = matching();
            assert.ok(found.length > 0, `no hintlens diagnostic about slugify; got ${JSON.stringify([...s.diagnostics])}${s.context()}`);
            for (const d of found) assert.equal(d.severity, 3, `severity should be Information (3): ${JSON.stringify(d)}`);
            const { code } = await s.shutdown();
            assert.equal(code, 0);
        });
    });
}
