// How a MosquittoClient reaches its broker: address, identity, TLS, keepalive, Last Will, reconnect policy.
// Always MQTT 5 (the bridge needs response topics, correlation data and message expiry).

public struct MQTTConfiguration: Sendable, Equatable {
    /// TLS to the broker. Without a CA file or directory the system's trust store (/etc/ssl/certs) is used.
    public struct TLS: Sendable, Equatable {
        public var caFile: String?
        public var caPath: String?
        /// A client certificate and its (unencrypted) key, for brokers that require one; both or neither.
        public var certFile: String?
        public var keyFile: String?

        public init(caFile: String? = nil, caPath: String? = nil, certFile: String? = nil, keyFile: String? = nil) {
            self.caFile = caFile
            self.caPath = caPath
            self.certFile = certFile
            self.keyFile = keyFile
        }
    }

    /// Published by the broker for us when our connection dies without a clean DISCONNECT.
    public struct LastWill: Sendable, Equatable {
        public var topic: String
        public var payload: [UInt8]
        public var qos: MQTTQoS
        public var retain: Bool

        public init(topic: String, payload: [UInt8], qos: MQTTQoS = .atLeastOnce, retain: Bool = true) {
            self.topic = topic
            self.payload = payload
            self.qos = qos
            self.retain = retain
        }
    }

    public var host: String
    public var port: Int
    public var clientID: String
    public var username: String?
    public var password: String?
    public var tls: TLS?
    /// Seconds between PINGREQs when idle (libmosquitto accepts 5…65535, or 0 for none).
    public var keepalive: Int = 30
    public var will: LastWill?
    /// MQTT 5 Clean Start: true drops any session the broker kept for this client id.
    public var cleanStart: Bool = true
    /// MQTT 5 Session Expiry Interval in seconds: how long the broker keeps this client's session (its
    /// subscriptions and the QoS ≥ 1 messages meant for it) after the connection ends. nil: none kept.
    public var sessionExpiry: UInt32?
    /// MQTT 5 Maximum Packet Size in CONNECT: the broker sends nothing bigger (it drops such a message for
    /// this client instead), so one huge publish cannot make us buffer it. nil: no limit said.
    public var maximumPacketSize: UInt32?
    /// MQTT 5 Receive Maximum in CONNECT: at most this many QoS ≥ 1 messages unacknowledged towards us at
    /// once (libmosquitto's default, 20, when nil).
    public var receiveMaximum: UInt16?
    /// The wait between connection attempts (jittered, doubling; see ReconnectBackoff).
    public var backoff = ReconnectBackoff()
    /// How long after the TCP connection a CONNACK may take before the attempt counts as failed.
    public var connectTimeout: Duration = .seconds(10)
    /// stop()'s bound: how long it may wait for queued QoS ≥ 1 publishes to be acknowledged before the
    /// DISCONNECT (plus up to a second for the DISCONNECT itself).
    public var stopTimeout: Duration = .seconds(3)
    /// The network thread's select timeout per mosquitto_loop call: how soon it notices stop() (publish and
    /// subscribe wake it at once through libmosquitto's socket pair).
    public var loopTimeout: Duration = .milliseconds(200)

    public init(
        host: String, port: Int = 1883, clientID: String, username: String? = nil, password: String? = nil,
        tls: TLS? = nil, will: LastWill? = nil
    ) {
        self.host = host
        self.port = port
        self.clientID = clientID
        self.username = username
        self.password = password
        self.tls = tls
        self.will = will
    }

    /// From a broker URL: `mqtt://host[:port]` (default 1883) or `mqtts://host[:port]` (TLS, default 8883;
    /// `tls` then defaults to the system trust store; TLS settings with `mqtt://` are refused). IPv6 hosts in brackets: `mqtts://[::1]:8883`.
    public init(
        url: String, clientID: String, username: String? = nil, password: String? = nil, tls: TLS? = nil,
        will: LastWill? = nil
    ) throws {
        let secure: Bool
        let rest: Substring
        if url.hasPrefix("mqtts://") {
            secure = true
            rest = url.dropFirst("mqtts://".count)
        } else if url.hasPrefix("mqtt://") {
            secure = false
            rest = url.dropFirst("mqtt://".count)
        } else {
            throw MQTTError.invalidConfiguration("broker URL must start with mqtt:// or mqtts://: \(url)")
        }
        var authority = rest.prefix { $0 != "/" }
        if authority.contains("@") {
            throw MQTTError.invalidConfiguration("give the username and password separately, not in the URL")
        }
        let host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw MQTTError.invalidConfiguration("unclosed [ in broker URL: \(url)")
            }
            host = authority[authority.index(after: authority.startIndex)..<close]
            authority = authority[authority.index(after: close)...]
            if authority.hasPrefix(":") {
                portText = authority.dropFirst()
            } else if !authority.isEmpty {
                throw MQTTError.invalidConfiguration("unexpected text after ] in broker URL: \(url)")
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        if !secure && tls != nil {
            throw MQTTError.invalidConfiguration("TLS settings given for a plain mqtt:// URL (use mqtts://)")
        }
        guard !host.isEmpty else { throw MQTTError.invalidConfiguration("no host in broker URL: \(url)") }
        var port = secure ? 8883 : 1883
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw MQTTError.invalidConfiguration("bad port in broker URL: \(url)")
            }
            port = value
        }
        self.init(
            host: String(host), port: port, clientID: clientID, username: username, password: password,
            tls: secure ? (tls ?? TLS()) : tls, will: will)
    }
}
