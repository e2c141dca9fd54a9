// Reading requests and writing answers: the URL, bodies (JSON or YAML, bounded in size), media types, and JSON or
// Status answers with kube-apiserver's headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import jsyaml from 'js-yaml';
import { ApiError, badRequest, type StatusObject } from './errors.ts';
import { bodyTooLarge, boundedBody, maxJsonDepth, maxRequestBodyBytes } from './limits.ts';
import { isJsonObject, type Json } from './patch.ts';
import type { KubeObject } from './store.ts';
import { errorText } from '../core/text/errorText.ts';

/** Sends a JSON answer (a string or bytes are sent as they are). */
export function sendJson(
	response: ServerResponse,
	code: number,
	body: unknown,
	contentType = 'application/json',
): void {
	const text = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
	response.writeHead(code, {
		'Content-Type': contentType,
		'Content-Length': Buffer.byteLength(text),
		'Cache-Control': 'no-cache, private',
	});
	response.end(text);
}

/** Sends a Status object, with its code as the HTTP status. */
export function sendStatus(
	response: ServerResponse,
	status: StatusObject,
	headers: Record<string, string> = {},
): void {
	const text = JSON.stringify(status);
	response.writeHead(status.code, {
		'Content-Type': 'application/json',
		'Content-Length': Buffer.byteLength(text),
		'Cache-Control': 'no-cache, private',
		...headers,
	});
	response.end(text);
}

/** The 404 of a path no route serves. */
export function notFoundPath(): ApiError {
	return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** The request's URL; a target that does not parse reads as `/?invalid`, which no route serves. */
export function requestUrl(request: IncomingMessage): URL {
	try {
		return new URL(request.url ?? '/', 'https://127.0.0.1');
	} catch {
		return new URL('/?invalid', 'https://127.0.0.1');
	}
}

/**
 * The request's body, at most 3 MiB as kube-apiserver allows: 413 above. The rest of a body that is too large is
 * read and dropped, so that the client, still sending, gets the answer instead of a reset connection.
 */
export function readBody(request: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (chunk: Buffer): void => {
			size += chunk.length;
			if (size <= maxRequestBodyBytes) {
				chunks.push(chunk);
				return;
			}
			request.off('data', onData);
			request.off('end', onEnd);
			request.resume();
			chunks.length = 0;
			reject(bodyTooLarge());
		};
		const onEnd = (): void => resolve(Buffer.concat(chunks).toString('utf8'));
		if (Number(request.headers['content-length'] ?? '0') > maxRequestBodyBytes) {
			request.resume();
			reject(bodyTooLarge());
			return;
		}
		request.on('data', onData);
		request.on('end', onEnd);
		request.once('error', reject);
		// A client that goes away mid-body: nothing will answer it, and nothing is left waiting.
		request.once('close', () => reject(new Error('the client closed the request')));
	});
}

function messageOf(error: unknown): string {
	return errorText(error);
}

/** A JSON body, or 400 as kube-apiserver words it (nested too deep included). */
export function parseJsonBody(text: string): Json {
	let body: Json;
	try {
		body = JSON.parse(text) as Json;
	} catch (error) {
		throw badRequest(`couldn't get version/kind; json parse error: ${messageOf(error)}`);
	}
	return boundedBody(body);
}

/**
 * A YAML body, or 400 as kube-apiserver words it. JSON (what kubectl sends) is read as JSON; other YAML by
 * js-yaml's core schema (YAML 1.2: no timestamps, no merge keys), which finds duplicate keys in linear time where
 * the yaml package takes quadratic time on a map of many keys. Aliases can make a small document a deep, huge or
 * cyclic value: the bounds of a body apply to what they expand to.
 */
export function parseYamlBody(text: string): Json {
	if (/^\s*[{[]/.test(text)) {
		try {
			return boundedBody(JSON.parse(text) as Json);
		} catch (error) {
			if (error instanceof ApiError) throw error;
			// Not JSON after all: read as YAML below.
		}
	}
	let body: Json;
	try {
		// maxDepth is a js-yaml 4 option its type declarations lack (default 100).
		const options = { schema: jsyaml.CORE_SCHEMA, maxDepth: maxJsonDepth };
		body = jsyaml.load(text, options) as Json;
	} catch (error) {
		throw badRequest(`error converting YAML to JSON: ${messageOf(error)}`);
	}
	return boundedBody(body === undefined ? null : body);
}

/** The media type of a Content-Type header, lower case, without parameters (JSON when absent). */
export function mediaType(contentType: string | undefined): string {
	return (contentType ?? 'application/json').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** An object sent to create or update, as JSON or YAML; 415 for other media types, 400 when not an object. */
export function objectBody(text: string, contentType: string | undefined): KubeObject {
	const media = mediaType(contentType);
	let body: Json;
	if (media === 'application/json' || media === '') body = parseJsonBody(text);
	else if (media === 'application/yaml' || media === 'application/x-yaml') {
		body = parseYamlBody(text);
	} else {
		throw new ApiError(
			415,
			'UnsupportedMediaType',
			`the body of the request was in an unknown format - accepted media types include: application/json, application/yaml`,
		);
	}
	if (!isJsonObject(body)) throw badRequest('the body must be a JSON object');
	return body;
}

/** Whether an Accept header allows a JSON answer (absent or empty does). */
export function acceptsJson(accept: string | undefined): boolean {
	if (accept === undefined || accept.trim() === '') return true;
	return accept.split(',').some((part) => {
		const media = part.split(';')[0]?.trim().toLowerCase() ?? '';
		return media === 'application/json' || media === '*/*' || media === 'application/*';
	});
}

/** A boolean query parameter as kube-apiserver reads it. */
export function isTrue(value: string | null): boolean {
	return value === 'true' || value === '1';
}
