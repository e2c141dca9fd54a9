// The server's TLS material, made at start: a CA, a serving certificate for 127.0.0.1 and localhost signed by
// it, and on request client certificates (the user is the subject's CN, as kube-apiserver reads it). node-forge
// builds the X.509 structures; Node's own crypto makes the keys and the signatures, which keeps a start fast.

import { createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import forge from 'node-forge';

/** PEM texts of a CA and of a certificate it signed, with the keys. */
export interface Certificates {
	readonly caPem: string;
	readonly caKeyPem: string;
	readonly certPem: string;
	readonly keyPem: string;
}

/** A client certificate and its key, both PEM. */
export interface ClientCertificate {
	readonly certPem: string;
	readonly keyPem: string;
}

interface KeyPair {
	readonly publicKey: forge.pki.rsa.PublicKey;
	readonly privateKeyPem: string;
}

function keyPair(): KeyPair {
	const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
	const publicPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
	const privateKeyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
	return {
		publicKey: forge.pki.publicKeyFromPem(publicPem),
		privateKeyPem,
	};
}

/**
 * Signs a certificate with Node's crypto. node-forge's `cert.sign` hands the key a digest object after feeding
 * it the DER bytes; this stand-in keeps the bytes so that the signature is made natively, not in JavaScript.
 */
function signNatively(cert: forge.pki.Certificate, issuerKeyPem: string): void {
	let bytes = '';
	const digest = {
		algorithm: 'sha256',
		update(data: string) {
			bytes += data;
			return digest;
		},
	};
	const signer = {
		sign: () =>
			sign('sha256', Buffer.from(bytes, 'binary'), createPrivateKey(issuerKeyPem)).toString(
				'binary',
			),
	};
	cert.sign(
		signer as unknown as forge.pki.rsa.PrivateKey,
		digest as unknown as forge.md.MessageDigest,
	);
}

function serialNumber(): string {
	// A positive serial: the first hex digit below 8 keeps the DER integer's sign bit clear.
	const hex = randomBytes(16).toString('hex');
	return `4${hex.slice(1)}`;
}

function validity(cert: forge.pki.Certificate, days: number): void {
	const now = Date.now();
	cert.validity.notBefore = new Date(now - 60 * 60 * 1000);
	cert.validity.notAfter = new Date(now + days * 24 * 60 * 60 * 1000);
}

function issue(
	subjectCn: string,
	keys: KeyPair,
	issuer: { readonly cert: forge.pki.Certificate; readonly keyPem: string } | undefined,
	extensions: object[],
	organization?: string,
): forge.pki.Certificate {
	const cert = forge.pki.createCertificate();
	cert.publicKey = keys.publicKey;
	cert.serialNumber = serialNumber();
	validity(cert, issuer === undefined ? 3650 : 365);
	const subject: forge.pki.CertificateField[] = [{ name: 'commonName', value: subjectCn }];
	if (organization !== undefined) subject.push({ name: 'organizationName', value: organization });
	cert.setSubject(subject);
	cert.setIssuer(issuer === undefined ? subject : issuer.cert.subject.attributes);
	cert.setExtensions(extensions);
	signNatively(cert, issuer === undefined ? keys.privateKeyPem : issuer.keyPem);
	return cert;
}

/** A new CA and a serving certificate for 127.0.0.1, ::1 and localhost. */
export function createCertificates(): Certificates {
	const caKeys = keyPair();
	const ca = issue('kube-status-lens-local-ca', caKeys, undefined, [
		{ name: 'basicConstraints', cA: true, critical: true },
		{ name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
		{ name: 'subjectKeyIdentifier' },
	]);
	const serverKeys = keyPair();
	const server = issue('kube-apiserver', serverKeys, { cert: ca, keyPem: caKeys.privateKeyPem }, [
		{ name: 'basicConstraints', cA: false },
		{ name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
		{ name: 'extKeyUsage', serverAuth: true },
		{
			name: 'subjectAltName',
			altNames: [
				{ type: 7, ip: '127.0.0.1' },
				{ type: 7, ip: '::1' },
				{ type: 2, value: 'localhost' },
			],
		},
	]);
	return {
		caPem: forge.pki.certificateToPem(ca),
		caKeyPem: caKeys.privateKeyPem,
		certPem: forge.pki.certificateToPem(server),
		keyPem: serverKeys.privateKeyPem,
	};
}

let shared: Certificates | undefined;

/**
 * One set of certificates per process, made on first use: every server started by a test file shares it, so
 * only the first start pays for the keys. Tests that need a CA of their own call `createCertificates`.
 */
export function sharedCertificates(): Certificates {
	shared ??= createCertificates();
	return shared;
}

/** A client certificate for `user` (CN) in `groups` (O), signed by the CA of `certificates`. */
export function createClientCertificate(
	certificates: Certificates,
	user: string,
	groups: readonly string[] = [],
): ClientCertificate {
	const ca = forge.pki.certificateFromPem(certificates.caPem);
	const keys = keyPair();
	const cert = issue(
		user,
		keys,
		{ cert: ca, keyPem: certificates.caKeyPem },
		[
			{ name: 'basicConstraints', cA: false },
			{ name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
			{ name: 'extKeyUsage', clientAuth: true },
		],
		groups[0],
	);
	return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privateKeyPem };
}
