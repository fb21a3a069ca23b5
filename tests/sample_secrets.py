"""Realistic-looking secrets of every redacted type, shared by the end-to-end secret tests."""

SECRETS = {
    "github": "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5",
    "aws": "AKIAIOSFODNN7EXAMPLE",
    "aws_secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "stripe": "sk_live_51HqLyjWDarjtT1zdp7dcXYZabcdefgh",
    "slack": "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx",
    "openai": "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD",
    "anthropic": "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789-ABCDEFGH",
    "google": "AIzaSyA1234567890abcdefghijklmnopqrstuv",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
           "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "password": "Tr0ub4dor3xyzQ",
    "url_password": "S3cretPassw0rd",
    "pem": "MIIEowIBAAKCAQEA7bq9Zx0k3Lw8vQ1nYt5s2Xr4mJ9u",
}
PEM = f"-----BEGIN RSA PRIVATE KEY-----\n{SECRETS['pem']}\n-----END RSA PRIVATE KEY-----"
