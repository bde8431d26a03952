// The hintlens VS Code extension: a language client for `hintlens lsp`.

import * as vscode from 'vscode';
import {
    CodeLensRequest,
    DidChangeConfigurationNotification,
    ExecuteCommandRequest,
    LanguageClient,
    type LanguageClientOptions,
    ResponseError,
    type ServerOptions,
    State,
} from 'vscode-languageclient/node';

import { LANGUAGES, configurationItem, serverPathSetting, serverSettings } from './config';
import {
    HINTS_REQUEST,
    type HintsParams,
    type HintsResponse,
    IndexingTracker,
    RESTART_COMMAND,
    SHOW_HINTS_COMMAND,
    type ServerState,
    type WorkDoneValue,
    hintDocument,
    parseHintsResponse,
    pollUntilIndexed,
    statusText,
} from './hints';
import { type LookupResult, describeFailure, findServer, nodeProbe } from './server';

/** Commands the extension implements itself even when the server also advertises them. */
const CLIENT_COMMANDS = new Set([SHOW_HINTS_COMMAND]);

class Extension {
    private client: LanguageClient | undefined;
    private tracker = new IndexingTracker();
    /** Bumped on every (re)start, so stale polls and handlers stop. */
    private generation = 0;
    private lastLookup: LookupResult | undefined;
    private indexingShown = true;

    constructor(
        private readonly context: vscode.ExtensionContext,
        private readonly output: vscode.OutputChannel,
        private readonly status: vscode.StatusBarItem,
    ) {}

    private config() {
        const cfg = vscode.workspace.getConfiguration('hintlens');
        return (key: string) => cfg.get(key);
    }

    /** What the user set (see config.ts: the server layers these over `.hintlens.toml`). */
    private inspect() {
        const cfg = vscode.workspace.getConfiguration('hintlens');
        return (key: string) => cfg.inspect(key);
    }

    private workspaceRoot(): string | undefined {
        return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    }

    setState(s: ServerState): void {
        const { text, tooltip } = statusText(s);
        this.status.text = text;
        this.status.tooltip = tooltip;
        this.status.command = s.kind === 'stopped' || s.kind === 'error' ? RESTART_COMMAND : SHOW_HINTS_COMMAND;
        this.status.backgroundColor =
            s.kind === 'error' ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
        this.status.show();
    }

    /** A state from the tracker; when indexing has just finished, lenses asked for meanwhile are stale. */
    private setTracked(s: ServerState): void {
        const wasIndexing = this.indexingShown;
        this.indexingShown = s.kind === 'indexing' || s.kind === 'starting';
        this.setState(s);
        if (wasIndexing && s.kind === 'ready') this.refreshCodeLenses();
    }

    /** Makes VS Code ask for the code lenses of every open document again. */
    private refreshCodeLenses(): void {
        const client = this.client;
        if (client === undefined || !client.isRunning()) return;
        const feature = client.getFeature(CodeLensRequest.method);
        const fired = new Set<unknown>();
        for (const doc of vscode.workspace.textDocuments) {
            const shape = feature.getProvider(doc);
            if (shape !== undefined && !fired.has(shape)) {
                fired.add(shape);
                shape.onDidChangeCodeLensEmitter.fire();
            }
        }
    }

    async start(): Promise<void> {
        const generation = ++this.generation;
        this.tracker = new IndexingTracker();
        this.indexingShown = true;
        this.setState({ kind: 'starting' });

        const lookup = findServer(
            {
                setting: serverPathSetting(this.config()),
                extensionPath: this.context.extensionPath,
                workspaceRoot: this.workspaceRoot(),
            },
            nodeProbe(),
        );
        this.lastLookup = lookup;
        if (lookup.found === undefined) {
            const explanation = describeFailure(lookup);
            this.output.appendLine(explanation);
            this.setState({ kind: 'error', message: explanation });
            void vscode.window
                .showErrorMessage('hintlens: no working `hintlens` binary found.', 'Open Settings', 'Show Details')
                .then((choice) => {
                    if (choice === 'Open Settings') {
                        void vscode.commands.executeCommand('workbench.action.openSettings', 'hintlens.server.path');
                    } else if (choice === 'Show Details') {
                        this.output.show(true);
                    }
                });
            return;
        }
        const server = lookup.found;
        this.output.appendLine(`hintlens: using ${server.path} (${server.version}; from ${server.source})`);

        // stdio, but no `transport` field: with `TransportKind.stdio` the client appends
        // `--stdio` to the arguments, which `hintlens lsp` rejects.
        const executable = {
            command: server.path,
            args: ['lsp'],
            options: { cwd: this.workspaceRoot(), env: { ...process.env } },
        };
        const serverOptions: ServerOptions = { run: executable, debug: executable };
        const clientOptions: LanguageClientOptions = {
            documentSelector: LANGUAGES.map((language) => ({ scheme: 'file', language })),
            initializationOptions: () => serverSettings(this.inspect()),
            // Decides when the server hears of a change; the middleware below decides what it hears.
            synchronize: { configurationSection: 'hintlens' },
            outputChannel: this.output,
            middleware: {
                workspace: {
                    // `{ settings: { hintlens: {…} } }` with only the server's keys the user set,
                    // instead of the whole merged section (defaults and client-only keys included).
                    didChangeConfiguration: async () => {
                        await client.sendNotification(DidChangeConfigurationNotification.type, {
                            settings: { hintlens: serverSettings(this.inspect()) },
                        });
                        // The server may re-index or count another selection: ask only now, so the
                        // request cannot overtake the settings it should be answered with.
                        if (generation === this.generation) this.refresh();
                    },
                    configuration: async (params, token, next) => {
                        const answers = await next(params, token);
                        if (answers instanceof ResponseError) return answers;
                        // A server that asks (it does when a change leaves no setting of the user's)
                        // applies the answer once it has it: ask for the status after the answer is
                        // written, which the next turn of the event loop is.
                        setTimeout(() => {
                            if (generation === this.generation) this.refresh();
                        }, 0);
                        return params.items.map((item, i) => configurationItem(item.section, this.inspect()) ?? answers[i]);
                    },
                },
                // Sees every work-done progress the server reports while leaving
                // the client's own window progress UI untouched.
                handleWorkDoneProgress: (token, params, next) => {
                    if (generation === this.generation) {
                        this.setTracked(this.tracker.progress(token, params as WorkDoneValue));
                        if (params.kind === 'end') this.refresh();
                    }
                    next(token, params);
                },
            },
        };

        const client = new LanguageClient('hintlens', 'hintlens', serverOptions, clientOptions);
        keepClientSideCommands(client);
        let stopped = false;
        client.onDidChangeState((e) => {
            if (generation !== this.generation) return;
            if (e.newState === State.Stopped) {
                stopped = true;
                this.setState({ kind: 'stopped' });
            } else if (e.newState === State.Running && stopped) {
                // The client restarted a crashed server by itself: a new index is on its way.
                stopped = false;
                this.tracker = new IndexingTracker();
                this.indexingShown = true;
                this.setState({ kind: 'starting' });
                this.refresh();
            }
        });
        this.client = client;
        try {
            await client.start();
        } catch (e) {
            if (generation !== this.generation) return;
            const message = `hintlens lsp failed to start: ${errorMessage(e)}`;
            this.output.appendLine(message);
            this.setState({ kind: 'error', message });
            return;
        }
        this.refresh();
    }

    async stop(): Promise<void> {
        this.generation++;
        const client = this.client;
        this.client = undefined;
        if (client !== undefined && client.needsStop()) {
            try {
                await client.stop();
            } catch (e) {
                this.output.appendLine(`hintlens: stopping the server failed: ${errorMessage(e)}`);
            }
        }
    }

    async restart(): Promise<void> {
        await this.stop();
        await this.start();
    }

    /** Polls `hintlens/hints` until the server says it is no longer indexing. */
    refresh(): void {
        const client = this.client;
        const generation = this.generation;
        if (client === undefined || !client.isRunning()) return;
        void pollUntilIndexed({
            request: async () => parseHintsResponse(await client.sendRequest(HINTS_REQUEST, {})),
            onAnswer: (r) => this.setTracked(this.tracker.polled(r)),
            onError: (e, n) => this.output.appendLine(`hintlens: ${HINTS_REQUEST} failed (${n}): ${errorMessage(e)}`),
            sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
            cancelled: () => generation !== this.generation || !client.isRunning(),
        });
    }

    /**
     * `hintlens.showHints`.  From the palette or the status item (no arguments)
     * it asks `hintlens/hints` with the configured selection and projection;
     * from a code lens (the server's arguments) it forwards the lens to
     * `workspace/executeCommand` so the server decides what the lens shows.
     */
    async showHints(...args: unknown[]): Promise<void> {
        const client = this.client;
        if (client === undefined || !client.isRunning()) {
            const detail = this.lastLookup?.found === undefined && this.lastLookup ? ` ${describeFailure(this.lastLookup)}` : '';
            void vscode.window.showErrorMessage(`hintlens: the server is not running.${detail}`);
            return;
        }
        let response: HintsResponse;
        try {
            if (args.length > 0) {
                const result = await client.sendRequest(ExecuteCommandRequest.type, {
                    command: SHOW_HINTS_COMMAND,
                    arguments: args,
                });
                response = parseHintsResponse(result);
            } else {
                // Only what the user set; the server fills in `.hintlens.toml` and its defaults.
                const settings = serverSettings(this.inspect());
                const params: HintsParams = {};
                if (settings.selection !== undefined) params.selection = settings.selection;
                if (settings.projection !== undefined) params.projection = settings.projection;
                response = parseHintsResponse(await client.sendRequest(HINTS_REQUEST, params));
            }
        } catch (e) {
            void vscode.window.showErrorMessage(`hintlens: could not get the hint block: ${errorMessage(e)}`);
            return;
        }
        const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: hintDocument(response) });
        await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: false });
    }
}

/**
 * If the server lists `hintlens.showHints` in `executeCommandProvider`, the
 * language client would register a VS Code command of that name that only
 * forwards to the server, colliding with ours (registration would throw and the
 * client would fail to start).  Keep those names out of its registration; our
 * command forwards lens invocations itself.
 */
function keepClientSideCommands(client: LanguageClient): void {
    const feature = client.getFeature(ExecuteCommandRequest.method);
    const register = feature.register.bind(feature);
    feature.register = (data) => {
        const commands = (data.registerOptions.commands ?? []).filter((c) => !CLIENT_COMMANDS.has(c));
        register({ ...data, registerOptions: { ...data.registerOptions, commands } });
    };
}

function errorMessage(e: unknown): string {
    return e instanceof Error ? e.message : String(e);
}

let extension: Extension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const output = vscode.window.createOutputChannel('hintlens');
    const status = vscode.window.createStatusBarItem('hintlens.status', vscode.StatusBarAlignment.Left, 0);
    status.name = 'hintlens';
    context.subscriptions.push(output, status);

    const ext = new Extension(context, output, status);
    extension = ext;
    context.subscriptions.push(
        vscode.commands.registerCommand(SHOW_HINTS_COMMAND, (...args: unknown[]) => ext.showHints(...args)),
        vscode.commands.registerCommand(RESTART_COMMAND, () => ext.restart()),
        vscode.workspace.onDidChangeConfiguration((e) => {
            // Other hintlens settings: the client forwards them itself (synchronize.configurationSection),
            // and the middleware above refreshes the status once they are sent.
            if (e.affectsConfiguration('hintlens.server.path')) void ext.restart();
        }),
        vscode.workspace.onDidSaveTextDocument((doc) => {
            if (LANGUAGES.includes(doc.languageId)) ext.refresh();
        }),
    );
    await ext.start();
}

export async function deactivate(): Promise<void> {
    await extension?.stop();
    extension = undefined;
}
