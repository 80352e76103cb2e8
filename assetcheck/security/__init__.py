"""The security scan: findings about hostile content, reported as issues with a security level."""
