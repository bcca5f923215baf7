// Tests keep stdout readable: Powertools logs are silenced unless a test turns them on
// (the log-safety test does, and captures them).
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
