// A throwaway certificate authority made with the openssl CLI, and certificates it issues (server certificates
// with an IP subject alternative name, client certificates), for TLS tests on loopback. EC P-256 keys: fast
// to make. Valid for two days; nothing here is reused across test runs.

import Foundation

public struct TestCertificateAuthority: Sendable {
    /// PEM files: the CA certificate (what a client trusts) and its key.
    public let certificateFile: String
    public let keyFile: String
    private let directory: String

    /// Makes a self-signed CA in `directory`, files named after `name`.
    public init(in directory: String, name: String) throws {
        self.directory = directory
        certificateFile = "\(directory)/\(name).crt"
        keyFile = "\(directory)/\(name).key"
        try ChildProcess.check(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", keyFile, "-out", certificateFile, "-days", "2", "-subj", "/CN=\(name)",
            ], timeout: 30)
    }

    /// Issues a certificate for `commonName`, with `subjectAltName` (e.g. "IP:127.0.0.1") and the extended
    /// key usage of a server (`server: true`) or a client. Returns the PEM certificate and key files.
    public func issue(
        name: String, commonName: String, subjectAltName: String? = nil, server: Bool = true
    ) throws -> (certificateFile: String, keyFile: String) {
        let key = "\(directory)/\(name).key"
        let request = "\(directory)/\(name).csr"
        let certificate = "\(directory)/\(name).crt"
        let extensions = "\(directory)/\(name).ext"
        try ChildProcess.check(
            "openssl",
            [
                "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key, "-out", request, "-subj", "/CN=\(commonName)",
            ], timeout: 30)
        var lines = ["basicConstraints=CA:FALSE", "extendedKeyUsage=\(server ? "serverAuth" : "clientAuth")"]
        if let subjectAltName { lines.append("subjectAltName=\(subjectAltName)") }
        try (lines.joined(separator: "\n") + "\n").write(toFile: extensions, atomically: true, encoding: .utf8)
        try ChildProcess.check(
            "openssl",
            [
                "x509", "-req", "-in", request, "-CA", certificateFile, "-CAkey", keyFile, "-CAcreateserial",
                "-out", certificate, "-days", "2", "-extfile", extensions,
            ], timeout: 30)
        return (certificate, key)
    }
}
