//! `llmops/tui.toml` in the XDG config dir: server, theme, mouse, gauge rate, ASCII mode.
//! Precedence is flag > env > this file > default; a broken file is reported, not fatal.

use std::path::PathBuf;

use serde::Deserialize;

#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Server address used when neither `--server` nor `LLMOPS_SERVER` is given.
    pub server: Option<String>,
    /// `dark` (default) or `light`.
    pub theme: Option<String>,
    /// Capture the mouse for wheel scrolling (off by default so terminal selection works).
    pub mouse: Option<bool>,
    /// Monitor snapshot interval in milliseconds.
    pub gauge_interval_ms: Option<u32>,
    /// ASCII-only gauges and spinner.
    pub ascii: Option<bool>,
}

pub fn path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("llmops").join("tui.toml"))
}

impl Config {
    pub fn parse(text: &str) -> Result<Config, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// Loads the config file; a missing file is the default, a bad one a warning.
    pub fn load() -> (Config, Option<String>) {
        let Some(p) = path() else {
            return (Config::default(), None);
        };
        match std::fs::read_to_string(&p) {
            Ok(t) => match Config::parse(&t) {
                Ok(c) => (c, None),
                Err(e) => (
                    Config::default(),
                    Some(format!("ignoring {}: {e}", p.display())),
                ),
            },
            Err(_) => (Config::default(), None),
        }
    }

    pub fn gauge_interval_ms(&self) -> u32 {
        self.gauge_interval_ms.unwrap_or(1000).clamp(250, 60_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_fields_and_rejects_typos() {
        let c = Config::parse("server = \"10.0.0.2:9999\"\ntheme = \"light\"\nmouse = true\ngauge_interval_ms = 100\n")
            .expect("valid");
        assert_eq!(c.server.as_deref(), Some("10.0.0.2:9999"));
        assert_eq!(c.gauge_interval_ms(), 250);
        assert!(Config::parse("sever = 1").is_err());
    }
}
