// Kubeconfig resolved exactly as kubectl (client-go `clientcmd`) resolves it, then handed to client-node.
//
// client-node's own loader differs from kubectl where it matters to users with several files: a name defined in two
// files makes it throw (kubectl keeps the first), its current-context comes from the last file (kubectl: the first
// file that sets one), and a listed file that is missing makes it throw (kubectl skips it). So the files are merged
// here by client-go's rules (`ClientConfigLoadingRules.Load`, `ResolveLocalPaths`) and the result goes to client-node
// through `KubeConfig.loadFromOptions`. Nothing here writes to a kubeconfig. Problems come back as data.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
import { parse as parseYaml, parseDocument } from 'yaml';
import { errorText } from '../core/text/errorText.ts';

// ---------------------------------------------------------------------------------------------------------------
// Types

/** A cluster entry as kubectl reads it (`clusters[].cluster`), with relative paths made absolute. */
export interface ClusterInfo {
	readonly server?: string;
	readonly certificateAuthority?: string;
	readonly certificateAuthorityData?: string;
	readonly insecureSkipTlsVerify?: boolean;
	readonly tlsServerName?: string;
	readonly proxyUrl?: string;
}

/** An `exec` credential plugin (client.authentication.k8s.io). */
export interface ExecConfig {
	readonly command: string;
	readonly args: readonly string[];
	readonly env: readonly { readonly name: string; readonly value: string }[];
	readonly apiVersion?: string;
	readonly installHint?: string;
	readonly provideClusterInfo: boolean;
	readonly interactiveMode?: string;
}

/** A user entry as kubectl reads it (`users[].user`), with relative paths made absolute. */
export interface UserInfo {
	readonly clientCertificate?: string;
	readonly clientCertificateData?: string;
	readonly clientKey?: string;
	readonly clientKeyData?: string;
	readonly token?: string;
	readonly tokenFile?: string;
	readonly impersonate?: string;
	readonly username?: string;
	readonly password?: string;
	readonly authProvider?: {
		readonly name: string;
		readonly config: Readonly<Record<string, string>>;
	};
	readonly exec?: ExecConfig;
}

/** A context entry (`contexts[].context`). */
export interface ContextInfo {
	readonly cluster: string;
	readonly user: string;
	readonly namespace?: string;
}

/** A named entry and the file it came from (client-go's LocationOfOrigin). */
export interface Named<T> {
	readonly name: string;
	readonly origin: string;
	readonly value: T;
}

/** What happened to one file of the list. */
export interface KubeconfigFileInfo {
	readonly path: string;
	readonly status: 'loaded' | 'missing' | 'unreadable' | 'invalid';
}

/** A problem found while reading kubeconfig files, as data (never thrown). */
export interface KubeconfigProblem {
	readonly code:
		| 'missing-file'
		| 'unreadable-file'
		| 'yaml-syntax'
		| 'not-a-kubeconfig'
		| 'duplicate-name'
		| 'invalid-entry'
		| 'ignored-field'
		| 'no-kubeconfig';
	readonly severity: 'error' | 'warning' | 'info';
	readonly message: string;
	/** The file the problem is about, when there is one. */
	readonly path?: string;
}

/** The merged view of every kubeconfig file, in kubectl's precedence. */
export interface MergedKubeconfig {
	readonly clusters: readonly Named<ClusterInfo>[];
	readonly users: readonly Named<UserInfo>[];
	readonly contexts: readonly Named<ContextInfo>[];
	readonly currentContext?: string;
	readonly files: readonly KubeconfigFileInfo[];
	readonly problems: readonly KubeconfigProblem[];
}

/** One file of the list as read from disk: its text, or why there is none. */
export type KubeconfigFileRead =
	| { readonly path: string; readonly kind: 'text'; readonly text: string }
	| { readonly path: string; readonly kind: 'missing' }
	| { readonly path: string; readonly kind: 'unreadable'; readonly message: string };

/** Where kubeconfig files are looked for, as kubectl decides. */
export interface KubeconfigLocation {
	readonly paths: readonly string[];
	/** The setting (kubectl's --kubeconfig) named the file: it must exist. */
	readonly source: 'explicit' | 'env' | 'default';
}

// ---------------------------------------------------------------------------------------------------------------
// Which files

/**
 * The kubeconfig files to read, in precedence order: an explicit path (a setting, like kubectl's --kubeconfig)
 * alone; else the KUBECONFIG list (empty entries dropped, duplicates removed, relative entries against cwd); else
 * `~/.kube/config`.
 */
export function kubeconfigLocation(input: {
	readonly explicitPath?: string;
	readonly kubeconfigEnv?: string;
	readonly home: string;
	readonly cwd: string;
	/** The KUBECONFIG list separator: ':' on POSIX, ';' on Windows. */
	readonly delimiter?: string;
}): KubeconfigLocation {
	const absolute = (file: string): string => path.resolve(input.cwd, expandHome(file, input.home));
	if (input.explicitPath !== undefined && input.explicitPath.trim() !== '') {
		return { paths: [absolute(input.explicitPath.trim())], source: 'explicit' };
	}
	if (input.kubeconfigEnv !== undefined && input.kubeconfigEnv !== '') {
		const seen = new Set<string>();
		const paths: string[] = [];
		for (const entry of input.kubeconfigEnv.split(input.delimiter ?? path.delimiter)) {
			if (entry === '') continue;
			const file = path.resolve(input.cwd, entry);
			if (seen.has(file)) continue;
			seen.add(file);
			paths.push(file);
		}
		return { paths, source: 'env' };
	}
	return { paths: [path.join(input.home, '.kube', 'config')], source: 'default' };
}

// A setting is not expanded by a shell, so "~/" there means the home folder; kubectl's flag gets it from the shell.
function expandHome(file: string, home: string): string {
	if (file === '~') return home;
	if (file.startsWith('~/') || file.startsWith('~\\')) return path.join(home, file.slice(2));
	return file;
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing and merging (pure)

/** One kubeconfig file as read: its named entries and its current-context. */
export interface KubeconfigFile {
	readonly clusters: readonly Named<ClusterInfo>[];
	readonly users: readonly Named<UserInfo>[];
	readonly contexts: readonly Named<ContextInfo>[];
	readonly currentContext?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class FieldReader {
	readonly problems: KubeconfigProblem[];
	readonly file: string;
	constructor(file: string, problems: KubeconfigProblem[]) {
		this.file = file;
		this.problems = problems;
	}

	warn(message: string): void {
		this.problems.push({ code: 'ignored-field', severity: 'warning', message, path: this.file });
	}

	string(record: Record<string, unknown>, key: string, where: string): string | undefined {
		const value = record[key];
		if (value === undefined || value === null) return undefined;
		if (typeof value === 'string') return value;
		// client-go refuses the whole file over a mistyped field; one bad field should not hide every context, so
		// only the field is skipped, and the user is told.
		this.warn(`${where}: "${key}" is not a string and was ignored`);
		return undefined;
	}

	boolean(record: Record<string, unknown>, key: string, where: string): boolean | undefined {
		const value = record[key];
		if (value === undefined || value === null) return undefined;
		if (typeof value === 'boolean') return value;
		this.warn(`${where}: "${key}" is not true or false and was ignored`);
		return undefined;
	}

	/** A path field, made absolute against the file's folder (client-go ResolveLocalPaths). */
	path(record: Record<string, unknown>, key: string, where: string): string | undefined {
		const value = this.string(record, key, where);
		if (value === undefined || value === '') return undefined;
		return path.resolve(path.dirname(this.file), value);
	}
}

// Drops undefined fields, so optional properties are absent rather than undefined (exactOptionalPropertyTypes).
function compact<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
	const result: Record<string, unknown> = {};
	for (const [key, field] of Object.entries(value)) if (field !== undefined) result[key] = field;
	return result as T;
}

function readCluster(
	reader: FieldReader,
	raw: Record<string, unknown>,
	where: string,
): ClusterInfo {
	return compact<ClusterInfo>({
		server: reader.string(raw, 'server', where),
		certificateAuthority: reader.path(raw, 'certificate-authority', where),
		certificateAuthorityData: reader.string(raw, 'certificate-authority-data', where),
		insecureSkipTlsVerify: reader.boolean(raw, 'insecure-skip-tls-verify', where),
		tlsServerName: reader.string(raw, 'tls-server-name', where),
		proxyUrl: reader.string(raw, 'proxy-url', where),
	});
}

function readExec(
	reader: FieldReader,
	raw: Record<string, unknown>,
	where: string,
): ExecConfig | undefined {
	const command = reader.string(raw, 'command', `${where}.exec`);
	if (command === undefined || command === '') {
		reader.problems.push({
			code: 'invalid-entry',
			severity: 'warning',
			message: `${where}: exec has no command`,
			path: reader.file,
		});
		return undefined;
	}
	const args = Array.isArray(raw.args) ? raw.args.filter((arg) => typeof arg === 'string') : [];
	const env: { name: string; value: string }[] = [];
	if (Array.isArray(raw.env)) {
		for (const entry of raw.env) {
			if (isObject(entry) && typeof entry.name === 'string' && typeof entry.value === 'string') {
				env.push({ name: entry.name, value: entry.value });
			}
		}
	}
	// client-go resolves the command against the file's folder only when it names a path, not a program on PATH.
	const resolved =
		command.includes('/') || command.includes(path.sep)
			? path.resolve(path.dirname(reader.file), command)
			: command;
	return compact<ExecConfig>({
		command: resolved,
		args,
		env,
		apiVersion: reader.string(raw, 'apiVersion', `${where}.exec`),
		installHint: reader.string(raw, 'installHint', `${where}.exec`),
		provideClusterInfo: reader.boolean(raw, 'provideClusterInfo', `${where}.exec`) ?? false,
		interactiveMode: reader.string(raw, 'interactiveMode', `${where}.exec`),
	});
}

function readUser(reader: FieldReader, raw: Record<string, unknown>, where: string): UserInfo {
	let authProvider: UserInfo['authProvider'];
	if (isObject(raw['auth-provider'])) {
		const provider = raw['auth-provider'];
		const config: Record<string, string> = {};
		if (isObject(provider.config)) {
			for (const [key, value] of Object.entries(provider.config)) {
				if (typeof value === 'string') config[key] = value;
			}
		}
		if (typeof provider.name === 'string') authProvider = { name: provider.name, config };
	}
	return compact<UserInfo>({
		clientCertificate: reader.path(raw, 'client-certificate', where),
		clientCertificateData: reader.string(raw, 'client-certificate-data', where),
		clientKey: reader.path(raw, 'client-key', where),
		clientKeyData: reader.string(raw, 'client-key-data', where),
		token: reader.string(raw, 'token', where),
		tokenFile: reader.path(raw, 'tokenFile', where),
		impersonate: reader.string(raw, 'as', where),
		username: reader.string(raw, 'username', where),
		password: reader.string(raw, 'password', where),
		authProvider,
		exec: isObject(raw.exec) ? readExec(reader, raw.exec, where) : undefined,
	});
}

function readContext(
	reader: FieldReader,
	raw: Record<string, unknown>,
	where: string,
): ContextInfo {
	return compact<ContextInfo>({
		cluster: reader.string(raw, 'cluster', where) ?? '',
		user: reader.string(raw, 'user', where) ?? '',
		namespace: reader.string(raw, 'namespace', where) || undefined,
	});
}

type SectionName = 'clusters' | 'users' | 'contexts';
const entryKeyOf = { clusters: 'cluster', users: 'user', contexts: 'context' } as const;

function readSection<T>(
	reader: FieldReader,
	document: Record<string, unknown>,
	section: SectionName,
	read: (reader: FieldReader, raw: Record<string, unknown>, where: string) => T,
): { entries: Named<T>[]; duplicate?: string } {
	const list = document[section];
	const entries: Named<T>[] = [];
	if (list === undefined || list === null) return { entries };
	if (!Array.isArray(list)) {
		reader.problems.push({
			code: 'invalid-entry',
			severity: 'warning',
			message: `"${section}" is not a list and was ignored`,
			path: reader.file,
		});
		return { entries };
	}
	const names = new Set<string>();
	for (const [index, item] of list.entries()) {
		const where = `${section}[${index}]`;
		if (!isObject(item) || typeof item.name !== 'string' || item.name === '') {
			reader.problems.push({
				code: 'invalid-entry',
				severity: 'warning',
				message: `${where} has no name and was ignored`,
				path: reader.file,
			});
			continue;
		}
		// client-go's conversion rejects the whole file when a name repeats inside it.
		if (names.has(item.name)) {
			return { entries, duplicate: `${entryKeyOf[section]} "${item.name}"` };
		}
		names.add(item.name);
		const body = item[entryKeyOf[section]];
		entries.push({
			name: item.name,
			origin: reader.file,
			value: read(reader, isObject(body) ? body : {}, `${where} ("${item.name}")`),
		});
	}
	return { entries };
}

/** Reads one kubeconfig text; a file kubectl would refuse comes back as undefined with its problems. */
export function parseKubeconfig(
	filePath: string,
	text: string,
): { readonly file?: KubeconfigFile; readonly problems: readonly KubeconfigProblem[] } {
	const problems: KubeconfigProblem[] = [];
	const document = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
	if (document.errors.length > 0) {
		const first = document.errors[0];
		problems.push({
			code: 'yaml-syntax',
			severity: 'error',
			message: `not valid YAML: ${first?.message.split('\n')[0] ?? 'syntax error'}`,
			path: filePath,
		});
		return { problems };
	}
	let value: unknown;
	try {
		value = document.toJS({ maxAliasCount: 100 });
	} catch (error) {
		problems.push({
			code: 'yaml-syntax',
			severity: 'error',
			message: errorText(error),
			path: filePath,
		});
		return { problems };
	}
	// client-go loads an empty file as an empty config.
	if (value === null || value === undefined) {
		return { file: { clusters: [], users: [], contexts: [] }, problems };
	}
	if (!isObject(value)) {
		problems.push({
			code: 'not-a-kubeconfig',
			severity: 'error',
			message: 'not a kubeconfig: the top level is not a mapping',
			path: filePath,
		});
		return { problems };
	}
	const reader = new FieldReader(filePath, problems);
	const clusters = readSection(reader, value, 'clusters', readCluster);
	const users = readSection(reader, value, 'users', readUser);
	const contexts = readSection(reader, value, 'contexts', readContext);
	const duplicate = clusters.duplicate ?? users.duplicate ?? contexts.duplicate;
	if (duplicate !== undefined) {
		problems.push({
			code: 'duplicate-name',
			severity: 'error',
			message: `${duplicate} is defined twice in this file, so kubectl refuses the file`,
			path: filePath,
		});
		return { problems };
	}
	const current = value['current-context'];
	return {
		file: {
			clusters: clusters.entries,
			users: users.entries,
			contexts: contexts.entries,
			...(typeof current === 'string' && current !== '' ? { currentContext: current } : {}),
		},
		problems,
	};
}

function mergeNamed<T>(target: Map<string, Named<T>>, entries: readonly Named<T>[]): void {
	for (const entry of entries) if (!target.has(entry.name)) target.set(entry.name, entry);
}

/**
 * Merges kubeconfig files by client-go's rules: the first file to define a cluster, user or context name wins (the
 * entry as a whole, not field by field); current-context comes from the first file that sets one; a missing file is
 * skipped (an error only when the setting named it); a file kubectl cannot load is skipped and reported.
 */
export function mergeKubeconfigs(
	reads: readonly KubeconfigFileRead[],
	source: KubeconfigLocation['source'] = 'env',
): MergedKubeconfig {
	const clusters = new Map<string, Named<ClusterInfo>>();
	const users = new Map<string, Named<UserInfo>>();
	const contexts = new Map<string, Named<ContextInfo>>();
	const files: KubeconfigFileInfo[] = [];
	const problems: KubeconfigProblem[] = [];
	let currentContext: string | undefined;
	for (const read of reads) {
		if (read.kind === 'missing') {
			files.push({ path: read.path, status: 'missing' });
			problems.push({
				code: 'missing-file',
				// kubectl fails on a missing --kubeconfig but silently skips a missing KUBECONFIG entry; say so.
				severity: source === 'explicit' ? 'error' : source === 'env' ? 'warning' : 'info',
				message:
					source === 'default'
						? `no kubeconfig at ${read.path}`
						: `kubeconfig file ${read.path} does not exist${source === 'env' ? ' (skipped, as kubectl does)' : ''}`,
				path: read.path,
			});
			continue;
		}
		if (read.kind === 'unreadable') {
			files.push({ path: read.path, status: 'unreadable' });
			problems.push({
				code: 'unreadable-file',
				severity: 'error',
				message: `cannot read ${read.path}: ${read.message}`,
				path: read.path,
			});
			continue;
		}
		const parsed = parseKubeconfig(read.path, read.text);
		for (const problem of parsed.problems) problems.push(problem);
		if (!parsed.file) {
			files.push({ path: read.path, status: 'invalid' });
			continue;
		}
		files.push({ path: read.path, status: 'loaded' });
		mergeNamed(clusters, parsed.file.clusters);
		mergeNamed(users, parsed.file.users);
		mergeNamed(contexts, parsed.file.contexts);
		currentContext ??= parsed.file.currentContext;
	}
	if (contexts.size === 0 && !problems.some((problem) => problem.severity === 'error')) {
		problems.push({
			code: 'no-kubeconfig',
			severity: 'info',
			message:
				reads.length === 0 ? 'no kubeconfig file to read' : 'the kubeconfig defines no contexts',
		});
	}
	return {
		clusters: [...clusters.values()],
		users: [...users.values()],
		contexts: [...contexts.values()],
		...(currentContext !== undefined ? { currentContext } : {}),
		files,
		problems,
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Reading (the only I/O of this file besides exec plugins)

/** Reads the files of a location; a missing file is data, not an error. */
async function readKubeconfigFiles(paths: readonly string[]): Promise<KubeconfigFileRead[]> {
	return Promise.all(
		paths.map(async (file): Promise<KubeconfigFileRead> => {
			try {
				return { path: file, kind: 'text', text: await readFile(file, 'utf8') };
			} catch (error) {
				const code = (error as NodeJS.ErrnoException).code;
				if (code === 'ENOENT' || code === 'ENOTDIR') return { path: file, kind: 'missing' };
				return {
					path: file,
					kind: 'unreadable',
					message: errorText(error),
				};
			}
		}),
	);
}

/**
 * Loads the kubeconfig the way kubectl would in this process: the explicit path (a setting) if given, else
 * KUBECONFIG, else ~/.kube/config. Never throws.
 */
export async function loadKubeconfig(
	options: {
		readonly explicitPath?: string;
		readonly env?: Readonly<Record<string, string | undefined>>;
		readonly home?: string;
		readonly cwd?: string;
	} = {},
): Promise<MergedKubeconfig> {
	const env = options.env ?? process.env;
	const location = kubeconfigLocation({
		...(options.explicitPath !== undefined ? { explicitPath: options.explicitPath } : {}),
		...(env.KUBECONFIG !== undefined ? { kubeconfigEnv: env.KUBECONFIG } : {}),
		home: options.home ?? homedir(),
		cwd: options.cwd ?? process.cwd(),
	});
	return mergeKubeconfigs(await readKubeconfigFiles(location.paths), location.source);
}

// ---------------------------------------------------------------------------------------------------------------
// Handing over to client-node

/** A client-node KubeConfig for one context, or why there is none. */
export type KubeConfigResult =
	| {
			readonly kind: 'ok';
			readonly kubeConfig: KubeConfig;
			readonly namespace?: string;
			/**
			 * Goes up whenever an exec plugin hands out a different client certificate, so that a caller keeping TLS
			 * connections open knows to open new ones.
			 */
			readonly tlsVersion: () => number;
	  }
	| { readonly kind: 'invalid'; readonly message: string };

/** How exec credential plugins run. */
export interface ExecOptions {
	/** A plugin that has not answered after this long is stopped ("login required"). */
	readonly timeoutMs?: number;
	/** Extra environment for plugins (tests). */
	readonly env?: Readonly<Record<string, string>>;
}

/** An exec plugin that failed: the session shows it as "login required". */
export class LoginRequiredError extends Error {
	override readonly name = 'LoginRequiredError';
}

// The name under which exec users are handed to client-node, so that its own ExecAuth (which has no timeout and
// never stops a plugin that hangs) does not claim them and the authenticator below does.
const execProviderName = 'kube-status-lens-exec';

// The same for users of the gcp auth provider: client-node's runs its command with execSync, which freezes the
// whole process (VS Code's extension host) for as long as the command runs.
const gcpProviderName = 'kube-status-lens-gcp';

// And for the azure auth provider, which client-go removed: client-node's would also run a command with execSync.
const unsupportedProviderName = 'kube-status-lens-unsupported';

function clientNodeCluster(entry: Named<ClusterInfo>): Cluster {
	const value = entry.value;
	return {
		name: entry.name,
		server: (value.server ?? '').replace(/\/$/, ''),
		skipTLSVerify: value.insecureSkipTlsVerify === true,
		...(value.certificateAuthorityData !== undefined
			? { caData: value.certificateAuthorityData }
			: {}),
		...(value.certificateAuthority !== undefined ? { caFile: value.certificateAuthority } : {}),
		...(value.tlsServerName !== undefined ? { tlsServerName: value.tlsServerName } : {}),
		...(value.proxyUrl !== undefined ? { proxyUrl: value.proxyUrl } : {}),
	};
}

function clientNodeUser(entry: Named<UserInfo>): User {
	const value = entry.value;
	let authProvider: unknown;
	if (value.exec) {
		authProvider = { name: execProviderName, config: {} };
	} else if (value.authProvider?.name === 'gcp') {
		authProvider = { name: gcpProviderName, config: {} };
	} else if (value.authProvider?.name === 'azure') {
		authProvider = { name: unsupportedProviderName, config: {} };
	} else if (value.authProvider) {
		// Copied: client-node's OIDC authenticator writes refreshed tokens into this object.
		authProvider = { name: value.authProvider.name, config: { ...value.authProvider.config } };
	} else if (value.tokenFile !== undefined) {
		// kubectl's `tokenFile`; client-node reads it (and rereads it every minute) through its FileAuth.
		authProvider = { name: 'tokenFile', config: { tokenFile: value.tokenFile } };
	}
	return {
		name: entry.name,
		...(value.clientCertificateData !== undefined ? { certData: value.clientCertificateData } : {}),
		...(value.clientCertificate !== undefined ? { certFile: value.clientCertificate } : {}),
		...(value.clientKeyData !== undefined ? { keyData: value.clientKeyData } : {}),
		...(value.clientKey !== undefined ? { keyFile: value.clientKey } : {}),
		...(value.token !== undefined ? { token: value.token } : {}),
		...(value.username !== undefined ? { username: value.username } : {}),
		...(value.password !== undefined ? { password: value.password } : {}),
		...(value.impersonate !== undefined ? { impersonateUser: value.impersonate } : {}),
		...(authProvider !== undefined ? { authProvider } : {}),
	};
}

/** client-node's options for `KubeConfig.loadFromOptions`: every merged entry, in kubectl's precedence. */
export function clientNodeOptions(merged: MergedKubeconfig): {
	clusters: Cluster[];
	users: User[];
	contexts: Context[];
	currentContext: string | undefined;
} {
	return {
		clusters: merged.clusters.map(clientNodeCluster),
		users: merged.users.map(clientNodeUser),
		contexts: merged.contexts.map((entry) => ({
			name: entry.name,
			cluster: entry.value.cluster,
			user: entry.value.user,
			...(entry.value.namespace !== undefined ? { namespace: entry.value.namespace } : {}),
		})),
		currentContext: merged.currentContext,
	};
}

/**
 * A client-node KubeConfig whose current context is `contextName`, with exec plugins run under a timeout. One per
 * session: client-node's authenticators keep per-instance caches.
 */
export function kubeConfigFor(
	merged: MergedKubeconfig,
	contextName: string,
	exec: ExecOptions = {},
): KubeConfigResult {
	const context = merged.contexts.find((entry) => entry.name === contextName);
	if (!context) {
		return { kind: 'invalid', message: `context "${contextName}" is not in the kubeconfig` };
	}
	const cluster = merged.clusters.find((entry) => entry.name === context.value.cluster);
	if (!cluster) {
		return {
			kind: 'invalid',
			message: `cluster "${context.value.cluster}" of context "${contextName}" is not in the kubeconfig`,
		};
	}
	if (!cluster.value.server) {
		return { kind: 'invalid', message: `cluster "${cluster.name}" has no server address` };
	}
	const user = merged.users.find((entry) => entry.name === context.value.user);
	if (context.value.user !== '' && !user) {
		return {
			kind: 'invalid',
			message: `user "${context.value.user}" of context "${contextName}" is not in the kubeconfig`,
		};
	}
	if (user?.value.authProvider?.name === 'azure' && !user.value.exec) {
		return {
			kind: 'invalid',
			message: `user "${user.name}" uses the azure auth provider, which kubectl no longer supports: convert the kubeconfig to the kubelogin exec plugin ("kubelogin convert-kubeconfig")`,
		};
	}
	const kubeConfig = new KubeConfig();
	const authenticator = execAuthenticator(
		new Map(
			merged.users.flatMap((entry): [string, CredentialSource][] => {
				if (entry.value.exec) return [[entry.name, { kind: 'exec', exec: entry.value.exec }]];
				const provider = entry.value.authProvider;
				return provider?.name === 'gcp'
					? [[entry.name, { kind: 'gcp', config: provider.config }]]
					: [];
			}),
		),
		cluster.value,
		exec,
	);
	kubeConfig.addAuthenticator(authenticator);
	kubeConfig.loadFromOptions({ ...clientNodeOptions(merged), currentContext: contextName });
	return {
		kind: 'ok',
		kubeConfig,
		tlsVersion: () => authenticator.tlsVersion,
		...(context.value.namespace !== undefined ? { namespace: context.value.namespace } : {}),
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Exec credential plugins

/** What an exec plugin answered (ExecCredential status). */
export interface ExecCredentialStatus {
	readonly token?: string;
	readonly clientCertificateData?: string;
	readonly clientKeyData?: string;
	readonly expirationTimestamp?: string;
}

function firstLine(text: string): string {
	return text.trim().split('\n')[0]?.trim() ?? '';
}

// An ExecCredential, or what gcloud prints for a token, is a few kilobytes: a plugin that prints more is broken.
const maxCredentialOutputBytes = 1024 * 1024;

// What is kept of a plugin's stderr for its message.
const keptStderrBytes = 64 * 1024;

/** What a credential command printed, and how it exited. */
interface CommandOutput {
	readonly code: number | null;
	readonly stdout: string;
	readonly stderr: string;
}

/**
 * Runs a credential command without a shell and without blocking: stopped, with what it started, after
 * `timeoutMs` or once it prints more than any credential holds. `label` names it in messages: 'the credential
 * plugin "aws"'.
 */
function runCredentialCommand(
	command: string,
	args: readonly string[],
	env: Readonly<Record<string, string | undefined>>,
	timeoutMs: number,
	label: string,
	installHint?: string,
): Promise<CommandOutput> {
	const spawnOptions: SpawnOptions = {
		env,
		stdio: ['ignore', 'pipe', 'pipe'],
		// Its own process group, so a plugin that is a script can be stopped together with what it started.
		detached: process.platform !== 'win32',
		windowsHide: true,
	};
	return new Promise((resolve, reject) => {
		let child: ChildProcess;
		let settled = false;
		const stdout: Buffer[] = [];
		const stderr: Buffer[] = [];
		let stdoutBytes = 0;
		let stderrBytes = 0;
		const stop = (): void => {
			if (child.exitCode !== null || child.signalCode !== null) return;
			try {
				if (process.platform !== 'win32' && child.pid !== undefined) {
					process.kill(-child.pid, 'SIGKILL');
				} else child.kill('SIGKILL');
			} catch {
				// Already gone.
			}
		};
		const finish = (error: Error | undefined, output?: CommandOutput): void => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			if (error) {
				stop();
				reject(error);
			} else if (output) resolve(output);
		};
		const timer = setTimeout(() => {
			finish(
				new LoginRequiredError(
					`${label} did not answer within ${Math.round(timeoutMs / 100) / 10} s (it may be waiting for a login)`,
				),
			);
		}, timeoutMs);
		try {
			child = spawn(command, [...args], spawnOptions);
		} catch (error) {
			finish(new LoginRequiredError(`cannot run "${command}": ${String(error)}`));
			return;
		}
		const tooMuch = (stream: string): void =>
			finish(
				new LoginRequiredError(
					`${label} printed more than ${maxCredentialOutputBytes / (1024 * 1024)} MiB on ${stream}, far more than a credential, and was stopped`,
				),
			);
		child.stdout?.on('data', (chunk: Buffer) => {
			stdoutBytes += chunk.length;
			if (stdoutBytes > maxCredentialOutputBytes) tooMuch('stdout');
			else stdout.push(chunk);
		});
		child.stderr?.on('data', (chunk: Buffer) => {
			stderrBytes += chunk.length;
			if (stderrBytes > maxCredentialOutputBytes) tooMuch('stderr');
			else if (stderrBytes - chunk.length < keptStderrBytes) stderr.push(chunk);
		});
		child.on('error', (error: NodeJS.ErrnoException) => {
			const hint = installHint ? ` ${installHint.trim()}` : '';
			finish(
				new LoginRequiredError(
					error.code === 'ENOENT'
						? `${label} is not installed.${hint}`
						: `cannot run "${command}": ${error.message}`,
				),
			);
		});
		// 'exit', not 'close': a plugin's own children may keep its pipes open after it has answered.
		child.on('exit', (code) => {
			// Let the pipes drain what the plugin wrote before exiting.
			setImmediate(() =>
				finish(undefined, {
					code,
					stdout: Buffer.concat(stdout).toString('utf8'),
					stderr: Buffer.concat(stderr).toString('utf8', 0, keptStderrBytes),
				}),
			);
		});
	});
}

/** Runs one exec plugin as kubectl does (KUBERNETES_EXEC_INFO, never interactive), stopping it after a timeout. */
export async function runExecPlugin(
	exec: ExecConfig,
	cluster: ClusterInfo,
	options: ExecOptions = {},
): Promise<ExecCredentialStatus> {
	const timeoutMs = options.timeoutMs ?? 10_000;
	const apiVersion = exec.apiVersion ?? 'client.authentication.k8s.io/v1';
	const execInfo = {
		apiVersion,
		kind: 'ExecCredential',
		spec: {
			// We cannot answer a prompt: a plugin that needs one fails, or times out, and shows "login required".
			interactive: false,
			...(exec.provideClusterInfo
				? {
						cluster: {
							server: cluster.server,
							...(cluster.tlsServerName !== undefined
								? { 'tls-server-name': cluster.tlsServerName }
								: {}),
							...(cluster.insecureSkipTlsVerify === true
								? { 'insecure-skip-tls-verify': true }
								: {}),
							...(cluster.certificateAuthorityData !== undefined
								? { 'certificate-authority-data': cluster.certificateAuthorityData }
								: {}),
							...(cluster.proxyUrl !== undefined ? { 'proxy-url': cluster.proxyUrl } : {}),
						},
					}
				: {}),
		},
	};
	const env: Record<string, string | undefined> = { ...process.env, ...options.env };
	for (const entry of exec.env) env[entry.name] = entry.value;
	env.KUBERNETES_EXEC_INFO = JSON.stringify(execInfo);
	const label = `the credential plugin "${exec.command}"`;
	const output = await runCredentialCommand(
		exec.command,
		exec.args,
		env,
		timeoutMs,
		label,
		exec.installHint,
	);
	if (output.code !== 0) {
		const detail = firstLine(output.stderr);
		throw new LoginRequiredError(
			`${label} failed (exit ${String(output.code)})${detail ? `: ${detail}` : ''}`,
		);
	}
	let credential: unknown;
	try {
		credential = JSON.parse(output.stdout);
	} catch {
		throw new LoginRequiredError(`${label} did not print an ExecCredential`);
	}
	const status = isObject(credential) && isObject(credential.status) ? credential.status : {};
	const read = (key: string): string | undefined =>
		typeof status[key] === 'string' ? status[key] : undefined;
	return compact<ExecCredentialStatus>({
		token: read('token'),
		clientCertificateData: read('clientCertificateData'),
		clientKeyData: read('clientKeyData'),
		expirationTimestamp: read('expirationTimestamp'),
	});
}

// ---------------------------------------------------------------------------------------------------------------
// The gcp auth provider

// client-go's gcp provider no longer exists (Kubernetes 1.26); its replacement is an exec plugin.
const gcpReplacement =
	'use the gke-gcloud-auth-plugin exec plugin instead, as kubectl now requires';

// A token whose command gave no expiry we can read is used this long before the command runs again.
const gcpTokenWithoutExpiryMs = 5 * 60_000;

/** The fields a `{.a.b}` JSONPath names, or undefined for anything more (client-go's keys are such paths). */
function jsonPathFields(template: string): string[] | undefined {
	const path = template
		.trim()
		.replace(/^\{(.*)\}$/, '$1')
		.trim();
	if (!/^(\.[A-Za-z0-9_-]+)+$/.test(path)) return undefined;
	return path.slice(1).split('.');
}

function valueAt(document: unknown, fields: readonly string[]): unknown {
	let current = document;
	for (const field of fields) current = isObject(current) ? current[field] : undefined;
	return current;
}

function isFresh(expirationTimestamp: string | undefined): boolean {
	if (expirationTimestamp === undefined) return true;
	// Refresh a little early so a request does not go out with a token about to expire.
	return Date.parse(expirationTimestamp) - 10_000 > Date.now();
}

/**
 * A token for a user of the gcp auth provider, as client-go's provider gave one, without blocking: the cached
 * `access-token` while its `expiry` is ahead, else what `cmd-path` (with `cmd-args`) prints, read at `token-key`
 * (default `{.access_token}`) and `expiry-key` (default `{.token_expiry}`), bounded as exec plugins are.
 */
async function gcpCredential(
	config: Readonly<Record<string, string>>,
	options: ExecOptions = {},
): Promise<ExecCredentialStatus> {
	const cached = config['access-token'];
	const expiry = config.expiry;
	const commandLine = config['cmd-path'];
	if (cached && expiry && !Number.isNaN(Date.parse(expiry)) && isFresh(expiry)) {
		return { token: cached, expirationTimestamp: expiry };
	}
	// client-node uses a token that has no expiry; with no command to run there is nothing better.
	if (cached && !expiry && !commandLine) return { token: cached };
	if (!commandLine) {
		throw new LoginRequiredError(
			`the gcp auth provider has no cmd-path and no access-token that is still valid: ${gcpReplacement}`,
		);
	}
	// client-go: cmd-args split on whitespace; without them, cmd-path is itself split.
	const words = (text: string): string[] => text.split(/\s+/).filter((word) => word !== '');
	const [command = '', ...commandArgs] =
		config['cmd-args'] !== undefined
			? [commandLine, ...words(config['cmd-args'])]
			: words(commandLine);
	const label = `the gcp auth provider's command "${command}"`;
	const output = await runCredentialCommand(
		command,
		commandArgs,
		{ ...process.env, ...options.env },
		options.timeoutMs ?? 10_000,
		label,
	);
	if (output.code !== 0) {
		const detail = firstLine(output.stderr);
		throw new LoginRequiredError(
			`${label} failed (exit ${String(output.code)})${detail ? `: ${detail}` : ''}`,
		);
	}
	let document: unknown;
	try {
		// client-go reads the output as YAML, of which JSON is a part.
		document = parseYaml(output.stdout, { maxAliasCount: 100 });
	} catch {
		throw new LoginRequiredError(`${label} did not print JSON`);
	}
	const tokenKey = config['token-key'] || '{.access_token}';
	const expiryKey = config['expiry-key'] || '{.token_expiry}';
	const tokenFields = jsonPathFields(tokenKey);
	const expiryFields = jsonPathFields(expiryKey);
	if (!tokenFields || !expiryFields) {
		throw new LoginRequiredError(
			`the gcp auth provider's token-key or expiry-key is not a path of fields: ${gcpReplacement}`,
		);
	}
	const token = valueAt(document, tokenFields);
	if (typeof token !== 'string' || token === '') {
		throw new LoginRequiredError(`${label} printed no token at ${tokenKey}`);
	}
	const printedExpiry = valueAt(document, expiryFields);
	const expiresAt =
		typeof printedExpiry === 'string' && !Number.isNaN(Date.parse(printedExpiry))
			? new Date(Date.parse(printedExpiry))
			: new Date(Date.now() + gcpTokenWithoutExpiryMs);
	return { token, expirationTimestamp: expiresAt.toISOString() };
}

interface HeaderOptions {
	headers?: Record<string, unknown>;
	cert?: unknown;
	key?: unknown;
}

/** Where a user's credential comes from, when we run something for it. */
type CredentialSource =
	| { readonly kind: 'exec'; readonly exec: ExecConfig }
	| { readonly kind: 'gcp'; readonly config: Readonly<Record<string, string>> };

/**
 * A client-node Authenticator for exec and gcp users: runs the plugin (or gcp's command) under a timeout, caches
 * the credential until it expires, and shares one run among concurrent requests (so a login prompt, if any, is
 * asked for once).
 */
function execAuthenticator(
	sources: ReadonlyMap<string, CredentialSource>,
	cluster: ClusterInfo,
	options: ExecOptions,
): {
	isAuthProvider(user: User): boolean;
	applyAuthentication(user: User, opts: object): Promise<void>;
	readonly tlsVersion: number;
} {
	const cache = new Map<string, ExecCredentialStatus>();
	let tlsVersion = 0;
	let lastCertificate: string | undefined;
	const running = new Map<string, Promise<ExecCredentialStatus>>();
	const fresh = (status: ExecCredentialStatus | undefined): status is ExecCredentialStatus =>
		status !== undefined && isFresh(status.expirationTimestamp);
	const credentialFor = (name: string, source: CredentialSource): Promise<ExecCredentialStatus> => {
		const cached = cache.get(name);
		if (fresh(cached)) return Promise.resolve(cached);
		let run = running.get(name);
		if (!run) {
			const started =
				source.kind === 'exec'
					? runExecPlugin(source.exec, cluster, options)
					: gcpCredential(source.config, options);
			run = started.then(
				(status) => {
					running.delete(name);
					cache.set(name, status);
					const certificate = `${status.clientCertificateData ?? ''}\n${status.clientKeyData ?? ''}`;
					if (lastCertificate !== undefined && certificate !== lastCertificate) tlsVersion++;
					lastCertificate = certificate;
					return status;
				},
				(error: unknown) => {
					running.delete(name);
					throw error;
				},
			);
			running.set(name, run);
		}
		return run;
	};
	return {
		get tlsVersion() {
			return tlsVersion;
		},
		isAuthProvider(user: User): boolean {
			const name = (user.authProvider as { name?: unknown } | undefined)?.name;
			return name === execProviderName || name === gcpProviderName;
		},
		async applyAuthentication(user: User, opts: object): Promise<void> {
			const source = sources.get(user.name);
			if (!source) return;
			const status = await credentialFor(user.name, source);
			const target = opts as HeaderOptions;
			if (status.clientCertificateData !== undefined) target.cert = status.clientCertificateData;
			if (status.clientKeyData !== undefined) target.key = status.clientKeyData;
			if (status.token !== undefined) {
				target.headers ??= {};
				target.headers.Authorization = `Bearer ${status.token}`;
			}
		},
	};
}
