/** The package version, printed by `fleetplan --version` and in SARIF output. */
export const VERSION = '0.1.0';
