// Reading requests and writing answers: the URL, bodies (JSON or YAML, bounded in size), media types, and JSON or
// Status answers with kube-apiserver's headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { ApiError, badRequest, type StatusObject } from './errors.ts';
import { isJsonObject, type Json } from './patch.ts';
import type { KubeObject } from './store.ts';

const maxBodyBytes = 16 * 1024 * 1024;

/** Sends a JSON answer (a string is sent as it is). */
export function sendJson(
	response: ServerResponse,
	code: number,
	body: unknown,
	contentType = 'application/json',
): void {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
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

/** The request's body, at most 16 MiB (413 above). */
export async function readBody(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > maxBodyBytes) {
			throw new ApiError(413, 'RequestEntityTooLarge', 'the request body is too large');
		}
		chunks.push(chunk);
	}
	return Buffer.concat(chunks).toString('utf8');
}

/** A JSON body, or 400 as kube-apiserver words it. */
export function parseJsonBody(text: string): Json {
	try {
		return JSON.parse(text) as Json;
	} catch (error) {
		throw badRequest(`couldn't get version/kind; json parse error: ${(error as Error).message}`);
	}
}

/** A YAML body, or 400 as kube-apiserver words it. */
export function parseYamlBody(text: string): Json {
	try {
		return parseYaml(text) as Json;
	} catch (error) {
		throw badRequest(`error converting YAML to JSON: ${(error as Error).message}`);
	}
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
