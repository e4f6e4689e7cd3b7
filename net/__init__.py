"""The protocol: msgpack frames over TCP, the headless host and the client (docs/protocol.md)."""
