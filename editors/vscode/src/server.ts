// Finding the `hintlens` binary that serves `hintlens lsp`.
//
// Lookup order (first candidate whose `--version` succeeds wins):
//   1. environment variable HINTLENS_SERVER
//   2. setting `hintlens.server.path`
//   3. the binary bundled in the extension: <extension>/server/hintlens[.exe]
//   4. `hintlens` on PATH
//
// This module must not import `vscode`: everything it touches on the machine
// (files, processes, environment) comes in through `Probe`, so the unit tests
// can drive it with fakes.

import * as childProcess from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ENV_VAR = 'HINTLENS_SERVER';
export const SETTING = 'hintlens.server.path';
export const VERSION_TIMEOUT_MS = 5000;

export type Source = 'env' | 'setting' | 'bundled' | 'path';

export interface Candidate {
    source: Source;
    /** What the candidate is called where it came from (env var name, setting, …). */
    origin: string;
    /** Absolute path (or, for a missing PATH entry, the bare name). */
    path: string;
}

export interface RunResult {
    /** Exit code, or null when the process was killed or could not start. */
    status: number | null;
    stdout: string;
    stderr: string;
    /** Set when the process could not be started or timed out. */
    error?: string;
}

export interface Probe {
    env: Readonly<Record<string, string | undefined>>;
    platform: NodeJS.Platform;
    homedir: string;
    isFile(p: string): boolean;
    run(command: string, args: readonly string[], timeoutMs: number): RunResult;
}

export interface LookupOptions {
    /** Value of the `hintlens.server.path` setting (empty/undefined = unset). */
    setting?: string | null;
    /** Directory the extension is installed in (holds `server/` when bundled). */
    extensionPath?: string;
    /** Base for a relative setting value (the first workspace folder). */
    workspaceRoot?: string;
}

export interface Attempt {
    candidate: Candidate;
    ok: boolean;
    /** First line of `--version` output, when it ran. */
    version?: string;
    /** Why the candidate was rejected. */
    reason?: string;
}

export interface Found {
    path: string;
    source: Source;
    version: string;
}

export interface LookupResult {
    found?: Found;
    tried: Attempt[];
}

export function binaryName(platform: NodeJS.Platform): string {
    return platform === 'win32' ? 'hintlens.exe' : 'hintlens';
}

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
    return platform === 'win32' ? path.win32 : path.posix;
}

/** `~` / `~/x` → home directory; relative paths → against the workspace root. */
export function expandPath(
    value: string,
    homedir: string,
    platform: NodeJS.Platform,
    workspaceRoot?: string,
): string {
    const p = pathApi(platform);
    let v = value.trim();
    if (v === '~') {
        v = homedir;
    } else if (v.startsWith('~/') || (platform === 'win32' && v.startsWith('~\\'))) {
        v = p.join(homedir, v.slice(2));
    }
    if (!p.isAbsolute(v) && workspaceRoot !== undefined) {
        v = p.resolve(workspaceRoot, v);
    }
    return v;
}

/** Every directory on PATH that holds a `hintlens` executable, in PATH order. */
export function pathCandidates(probe: Probe): string[] {
    const p = pathApi(probe.platform);
    const pathVar = probe.env.PATH ?? probe.env.Path ?? '';
    const sep = probe.platform === 'win32' ? ';' : ':';
    const names =
        probe.platform === 'win32'
            ? (probe.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM')
                  .split(';')
                  .filter((e) => e !== '')
                  .map((e) => `hintlens${e.toLowerCase()}`)
            : ['hintlens'];
    const out: string[] = [];
    for (const dir of pathVar.split(sep)) {
        if (dir === '') continue;
        for (const name of names) {
            const full = p.join(dir, name);
            if (probe.isFile(full) && !out.includes(full)) out.push(full);
        }
    }
    return out;
}

/** The candidates in lookup order, without running anything. */
export function candidates(opts: LookupOptions, probe: Probe): Candidate[] {
    const p = pathApi(probe.platform);
    const out: Candidate[] = [];
    const env = probe.env[ENV_VAR];
    if (env !== undefined && env.trim() !== '') {
        out.push({
            source: 'env',
            origin: `environment variable ${ENV_VAR}`,
            path: expandPath(env, probe.homedir, probe.platform),
        });
    }
    const setting = opts.setting;
    if (setting !== undefined && setting !== null && setting.trim() !== '') {
        out.push({
            source: 'setting',
            origin: `setting ${SETTING}`,
            path: expandPath(setting, probe.homedir, probe.platform, opts.workspaceRoot),
        });
    }
    if (opts.extensionPath !== undefined) {
        out.push({
            source: 'bundled',
            origin: 'binary bundled with the extension',
            path: p.join(opts.extensionPath, 'server', binaryName(probe.platform)),
        });
    }
    const onPath = pathCandidates(probe);
    if (onPath.length === 0) {
        out.push({ source: 'path', origin: 'PATH', path: binaryName(probe.platform) });
    } else {
        for (const full of onPath) out.push({ source: 'path', origin: 'PATH', path: full });
    }
    return out;
}

/** Runs `<path> --version`; a candidate works when that exits 0. */
export function check(candidate: Candidate, probe: Probe, timeoutMs = VERSION_TIMEOUT_MS): Attempt {
    const p = pathApi(probe.platform);
    if (candidate.source === 'path' && !p.isAbsolute(candidate.path)) {
        return { candidate, ok: false, reason: 'not found on PATH' };
    }
    if (!probe.isFile(candidate.path)) {
        return { candidate, ok: false, reason: 'no such file' };
    }
    const r = probe.run(candidate.path, ['--version'], timeoutMs);
    const firstLine = (s: string) => s.split(/\r?\n/).find((l) => l.trim() !== '')?.trim() ?? '';
    if (r.error !== undefined) {
        return { candidate, ok: false, reason: `\`--version\` failed: ${r.error}` };
    }
    if (r.status !== 0) {
        const detail = firstLine(r.stderr) || firstLine(r.stdout);
        return {
            candidate,
            ok: false,
            reason: `\`--version\` exited with ${r.status === null ? 'a signal' : `code ${r.status}`}${detail ? `: ${detail}` : ''}`,
        };
    }
    return { candidate, ok: true, version: firstLine(r.stdout) || firstLine(r.stderr) || '(no version printed)' };
}

/** Tries the candidates in order and returns the first that works, plus every attempt made. */
export function findServer(opts: LookupOptions, probe: Probe, timeoutMs = VERSION_TIMEOUT_MS): LookupResult {
    const tried: Attempt[] = [];
    for (const c of candidates(opts, probe)) {
        const a = check(c, probe, timeoutMs);
        tried.push(a);
        if (a.ok) {
            return { found: { path: c.path, source: c.source, version: a.version ?? '' }, tried };
        }
    }
    return { tried };
}

/** A multi-line explanation of a failed lookup, for the output channel / error message. */
export function describeFailure(result: LookupResult): string {
    const lines = ['Could not find a working `hintlens` binary (it must run `hintlens --version`). Tried:'];
    for (const a of result.tried) {
        lines.push(`  - ${a.candidate.origin}: ${a.candidate.path} — ${a.ok ? `ok (${a.version})` : a.reason}`);
    }
    lines.push(
        `Build it with \`cargo build -p hintlens-cli\` and point ${ENV_VAR} or the setting ${SETTING} at target/debug/hintlens, or put \`hintlens\` on PATH.`,
    );
    return lines.join('\n');
}

/** The real machine. */
export function nodeProbe(env: NodeJS.ProcessEnv = process.env): Probe {
    return {
        env,
        platform: process.platform,
        homedir: os.homedir(),
        isFile(p: string): boolean {
            try {
                return fs.statSync(p).isFile();
            } catch {
                return false;
            }
        },
        run(command: string, args: readonly string[], timeoutMs: number): RunResult {
            const r = childProcess.spawnSync(command, args, {
                encoding: 'utf8',
                timeout: timeoutMs,
                windowsHide: true,
                stdio: ['ignore', 'pipe', 'pipe'],
            });
            const result: RunResult = { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
            if (r.error !== undefined) {
                const code = (r.error as NodeJS.ErrnoException).code;
                result.error = code === 'ETIMEDOUT' ? `timed out after ${timeoutMs} ms` : r.error.message;
            } else if (r.signal !== null) {
                result.error = `killed by ${r.signal}`;
            }
            return result;
        },
    };
}
