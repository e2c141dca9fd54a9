// Loads a CommonJS bundle with V8's code cache beside it, as VS Code does for its own code: compiling the engine
// bundle (half a megabyte) and the functions the first tree runs costs more than reading their bytecode back. The
// cache is keyed by the bundle file's identity (fileIdentityOf), the Node version and the architecture (V8 itself
// only checks the source's length), and is written once, after the caller has run what it wants cached.
import { mkdirSync, readFileSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** A loaded module, and how its code cache stood. */
export interface CachedModule {
	readonly exports: unknown;
	/** 'used' when the code came from the cache, 'absent' when there was none, 'rejected' when V8 refused it. */
	readonly cache: 'used' | 'absent' | 'rejected';
	/** Writes the cache from what has been compiled so far, unless one was used; true once written. Never throws. */
	saveCache(): Promise<boolean>;
}

const prefix = 'code-';
const suffix = '.v8cache';

function readIfPresent(path: string): Buffer | undefined {
	try {
		return readFileSync(path);
	} catch {
		return undefined;
	}
}

/**
 * Which file a path names now, as one string: the path, size, modification and change times and inode. A rebuilt or
 * reinstalled file is another inode or was written since (the system sets the change time on every write, and no
 * program can set it back), so a cache keyed by it is never used for other content. The code cache here and the
 * engine's parse cache are keyed this way, without reading the bundle. Throws as statSync does.
 */
export function fileIdentityOf(path: string): string {
	const stat = statSync(path);
	return [path, stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino].join('\0');
}

/**
 * Two 32-bit FNV-1a hashes of the text, with different offsets, as 16 hex digits. Not a cryptographic hash, and not
 * of the source: hashing the whole bundle cost 25-40 ms of every start (cold code, a megabyte of text), and the first
 * use of node:crypto in the extension host (loading OpenSSL) 70 ms.
 */
function keyOf(text: string): string {
	let first = 0x811c9dc5;
	let second = 0x01000193 ^ text.length;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		first = Math.imul(first ^ code, 0x01000193);
		second = Math.imul(second ^ code, 0x01000193) ^ (second >>> 15);
	}
	return (first >>> 0).toString(16).padStart(8, '0') + (second >>> 0).toString(16).padStart(8, '0');
}

/**
 * Requires `modulePath` (a CommonJS file) with its code cache from `cacheFolder`. Throws only what loading the module
 * itself throws; a missing, unreadable or refused cache just means compiling as usual.
 */
export function requireWithCodeCache(modulePath: string, cacheFolder: string): CachedModule {
	// Before reading: a bundle rewritten meanwhile is cached under the old identity, which no later start finds.
	const key = keyOf([process.version, process.arch, fileIdentityOf(modulePath)].join('\0'));
	const source = readFileSync(modulePath, 'utf8');
	const cachePath = join(cacheFolder, `${prefix}${key}${suffix}`);
	const cachedData = readIfPresent(cachePath);
	const script = new Script(Module.wrap(source), { filename: modulePath, cachedData });
	const cache =
		cachedData === undefined ? 'absent' : script.cachedDataRejected ? 'rejected' : 'used';
	const module = new Module(modulePath);
	module.filename = modulePath;
	const requireHere = createRequire(modulePath);
	const wrapper = script.runInThisContext() as (
		exports: unknown,
		require: NodeJS.Require,
		module: Module,
		filename: string,
		dirname: string,
	) => void;
	wrapper.call(
		module.exports,
		module.exports,
		requireHere,
		module,
		modulePath,
		dirname(modulePath),
	);
	module.loaded = true;
	let saved = cache === 'used';
	return {
		exports: module.exports,
		cache,
		async saveCache() {
			if (saved) return false;
			saved = true;
			try {
				mkdirSync(cacheFolder, { recursive: true });
				for (const name of readdirSync(cacheFolder)) {
					if (
						name.startsWith(prefix) &&
						name.endsWith(suffix) &&
						name !== `${prefix}${key}${suffix}`
					) {
						unlinkSync(join(cacheFolder, name));
					}
				}
				// Written aside and renamed: another window starting now reads the whole cache or none.
				const partial = `${cachePath}.${process.pid}.partial`;
				await writeFile(partial, script.createCachedData());
				await rename(partial, cachePath);
				return true;
			} catch {
				// A cache that cannot be written costs the next start its compile time, nothing else.
				return false;
			}
		},
	};
}
