//! Provider presets (zhipu, openai, ollama, deepseek, or any OpenAI-compatible base URL) and
//! resolution of the LLM settings from config layers and the environment, including API-key
//! loading from env or a 0600 secrets file. Keys are never logged or put in errors.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use super::ApiKey;

/// A known provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    pub name: &'static str,
    pub base_url: &'static str,
    /// First is the default.
    pub models: &'static [&'static str],
    /// Env vars holding the key, in order of preference; empty: no key needed.
    pub key_env: &'static [&'static str],
}

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "zhipu",
        base_url: "https://open.bigmodel.cn/api/paas/v4",
        models: &["glm-4-flash", "glm-4.5-flash"],
        key_env: &["ZHIPUAI_API_KEY", "ZHIPU_API_KEY"],
    },
    Preset {
        name: "openai",
        base_url: "https://api.openai.com/v1",
        models: &["gpt-4o-mini", "gpt-4o"],
        key_env: &["OPENAI_API_KEY"],
    },
    Preset {
        name: "ollama",
        base_url: "http://127.0.0.1:11434/v1",
        models: &["qwen2.5:7b"],
        key_env: &[],
    },
    Preset {
        name: "deepseek",
        base_url: "https://api.deepseek.com/v1",
        models: &["deepseek-chat"],
        key_env: &["DEEPSEEK_API_KEY"],
    },
];

pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name.eq_ignore_ascii_case(name))
}

/// The `[llm]` table of the config file; the CLI fills the same struct (flag > env > file)
/// before [`resolve`].
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmFileConfig {
    /// `zhipu`, `openai`, `ollama`, `deepseek`, `offline`, or any name with `base_url`.
    pub provider: Option<String>,
    pub base_url: Option<String>,
    /// Default model (added to the list when not a preset model).
    pub model: Option<String>,
    /// Replaces the preset's model list.
    #[serde(default)]
    pub models: Vec<String>,
    /// File holding the API key; must be mode 0600.
    pub key_file: Option<PathBuf>,
    /// `false`: use the `TOOL:`/`ARGS:` text protocol for every model of this provider.
    pub tool_calling: Option<bool>,
    /// Models that have no function calling (text protocol for these only).
    #[serde(default)]
    pub text_only_models: Vec<String>,
    pub connect_timeout_secs: Option<u64>,
    pub first_byte_timeout_secs: Option<u64>,
    pub idle_timeout_secs: Option<u64>,
    pub max_retries: Option<u32>,
}

impl LlmFileConfig {
    /// `self` (higher precedence) with gaps filled from `lower`.
    pub fn over(self, lower: LlmFileConfig) -> LlmFileConfig {
        LlmFileConfig {
            provider: self.provider.or(lower.provider),
            base_url: self.base_url.or(lower.base_url),
            model: self.model.or(lower.model),
            models: if self.models.is_empty() {
                lower.models
            } else {
                self.models
            },
            key_file: self.key_file.or(lower.key_file),
            tool_calling: self.tool_calling.or(lower.tool_calling),
            text_only_models: if self.text_only_models.is_empty() {
                lower.text_only_models
            } else {
                self.text_only_models
            },
            connect_timeout_secs: self.connect_timeout_secs.or(lower.connect_timeout_secs),
            first_byte_timeout_secs: self
                .first_byte_timeout_secs
                .or(lower.first_byte_timeout_secs),
            idle_timeout_secs: self.idle_timeout_secs.or(lower.idle_timeout_secs),
            max_retries: self.max_retries.or(lower.max_retries),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    pub connect: Duration,
    /// From sending the request to the response headers / first body byte.
    pub first_byte: Duration,
    /// Between two body chunks of a streaming response.
    pub idle: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            connect: Duration::from_secs(10),
            first_byte: Duration::from_secs(60),
            idle: Duration::from_secs(60),
        }
    }
}

/// Resolved provider settings. `Debug` is safe to log: the key redacts itself.
#[derive(Debug, Clone)]
pub struct LlmSettings {
    pub provider: String,
    /// Without a trailing slash; requests go to `{base_url}/chat/completions`.
    pub base_url: String,
    pub models: Vec<String>,
    pub default_model: String,
    pub api_key: Option<ApiKey>,
    pub tool_calling: bool,
    pub text_only_models: Vec<String>,
    pub timeouts: Timeouts,
    /// Retries after the first attempt for 429, 5xx and connect errors.
    pub max_retries: u32,
}

impl LlmSettings {
    /// Settings for a base URL with defaults (tests, custom endpoints).
    pub fn custom(provider: &str, base_url: &str, models: &[&str]) -> LlmSettings {
        let models: Vec<String> = models.iter().map(|m| m.to_string()).collect();
        LlmSettings {
            provider: provider.to_string(),
            base_url: base_url.trim_end_matches('/').to_string(),
            default_model: models.first().cloned().unwrap_or_default(),
            models,
            api_key: None,
            tool_calling: true,
            text_only_models: vec![],
            timeouts: Timeouts::default(),
            max_retries: 3,
        }
    }

    /// The host conversation text goes to.
    pub fn egress_host(&self) -> String {
        reqwest::Url::parse(&self.base_url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_else(|| self.base_url.clone())
    }

    /// Whether `model` is to be asked with native function calling.
    pub fn native_tools(&self, model: &str) -> bool {
        self.tool_calling && !self.text_only_models.iter().any(|m| m == model)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmConfigError {
    #[error(
        "未知的 LLM 提供方 / unknown LLM provider '{0}': use zhipu, openai, ollama, deepseek, \
         offline, or set a base URL (--llm-base-url)"
    )]
    UnknownProvider(String),
    #[error("invalid LLM base URL '{0}': must be an http:// or https:// URL")]
    BadUrl(String),
    #[error("LLM provider '{0}' needs a model name: set --llm-model / LLMOPS_LLM_MODEL")]
    NoModel(String),
    #[error(
        "LLM provider '{provider}' needs an API key / 未配置 API 密钥: set {vars}, \
         LLMOPS_LLM_API_KEY or --llm-key-file"
    )]
    NoKey { provider: String, vars: String },
    #[error(
        "API 密钥文件权限过宽 / key file {path} has mode {mode:o}: it must be readable by its \
         owner only (chmod 600 {path})"
    )]
    KeyFileMode { path: String, mode: u32 },
    #[error("cannot read API key file {path}: {err}")]
    KeyFileRead { path: String, err: String },
    #[error("API key file {0} is empty")]
    KeyFileEmpty(String),
}

/// Reads a key file; refuses one that group or others can access.
pub fn read_key_file(path: &Path) -> Result<ApiKey, LlmConfigError> {
    use std::os::unix::fs::PermissionsExt;
    let shown = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| LlmConfigError::KeyFileRead {
        path: shown.clone(),
        err: e.to_string(),
    })?;
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(LlmConfigError::KeyFileMode { path: shown, mode });
    }
    let text = std::fs::read_to_string(path).map_err(|e| LlmConfigError::KeyFileRead {
        path: shown.clone(),
        err: e.to_string(),
    })?;
    let key = ApiKey::new(text);
    if key.expose().is_empty() {
        return Err(LlmConfigError::KeyFileEmpty(shown));
    }
    Ok(key)
}

/// Resolves the LLM settings. `None` means the offline planner only. Without an explicit
/// provider, a base URL selects a custom endpoint and a Zhipu key in the environment selects
/// `zhipu` (the legacy project's behaviour); other providers must be named.
pub fn resolve(
    c: LlmFileConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<LlmSettings>, LlmConfigError> {
    let Some(provider) = provider_name(&c, env) else {
        return Ok(None);
    };
    let preset = preset(&provider);
    let base_url = match (&c.base_url, preset) {
        (Some(u), _) => u.trim().trim_end_matches('/').to_string(),
        (None, Some(p)) => p.base_url.to_string(),
        (None, None) => return Err(LlmConfigError::UnknownProvider(provider)),
    };
    match reqwest::Url::parse(&base_url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host_str().is_some() => {}
        _ => return Err(LlmConfigError::BadUrl(base_url)),
    }
    let (models, default_model) = model_list(&c, preset, &provider)?;
    let api_key = api_key(&c, preset, &provider, env)?;
    let d = Timeouts::default();
    let secs = |v: Option<u64>, d: Duration| v.map(Duration::from_secs).unwrap_or(d);
    Ok(Some(LlmSettings {
        provider,
        base_url,
        models,
        default_model,
        api_key,
        tool_calling: c.tool_calling.unwrap_or(true),
        text_only_models: c.text_only_models,
        timeouts: Timeouts {
            connect: secs(c.connect_timeout_secs, d.connect),
            first_byte: secs(c.first_byte_timeout_secs, d.first_byte),
            idle: secs(c.idle_timeout_secs, d.idle),
        },
        max_retries: c.max_retries.unwrap_or(3).min(10),
    }))
}

/// The provider's lower-cased name; `None` for the offline planner (named, or nothing
/// configured that selects a provider).
fn provider_name(c: &LlmFileConfig, env: &dyn Fn(&str) -> Option<String>) -> Option<String> {
    match c.provider.as_deref().map(str::trim) {
        Some(p) if p.eq_ignore_ascii_case("offline") || p.eq_ignore_ascii_case("none") => None,
        Some(p) if !p.is_empty() => Some(p.to_ascii_lowercase()),
        _ => {
            if c.base_url.is_some() {
                Some("custom".to_string())
            } else if preset("zhipu")
                .map(|z| z.key_env.iter().any(|k| nonempty(env, k).is_some()))
                .unwrap_or(false)
            {
                Some("zhipu".to_string())
            } else {
                None
            }
        }
    }
}

/// The variable `k` of `env` unless it is unset or blank.
fn nonempty(env: &dyn Fn(&str) -> Option<String>, k: &str) -> Option<String> {
    env(k).filter(|v| !v.trim().is_empty())
}

/// The models offered (the configured list, else the preset's; the default model first
/// when it is not among them) and the default model.
fn model_list(
    c: &LlmFileConfig,
    preset: Option<&Preset>,
    provider: &str,
) -> Result<(Vec<String>, String), LlmConfigError> {
    let mut models: Vec<String> = if !c.models.is_empty() {
        c.models.clone()
    } else {
        preset
            .map(|p| p.models.iter().map(|m| m.to_string()).collect())
            .unwrap_or_default()
    };
    models.retain(|m| !m.trim().is_empty() && m != "offline");
    if let Some(m) = c.model.as_ref().filter(|m| !m.trim().is_empty()) {
        if !models.contains(m) {
            models.insert(0, m.clone());
        }
    }
    let default_model = match c.model.clone().filter(|m| !m.trim().is_empty()) {
        Some(m) => m,
        None => models
            .first()
            .cloned()
            .ok_or_else(|| LlmConfigError::NoModel(provider.to_string()))?,
    };
    Ok((models, default_model))
}

/// The API key: from the key file, else `LLMOPS_LLM_API_KEY`, else the preset's variables.
/// A preset that names key variables needs one.
fn api_key(
    c: &LlmFileConfig,
    preset: Option<&Preset>,
    provider: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<ApiKey>, LlmConfigError> {
    let key_env: Vec<&str> = preset.map(|p| p.key_env.to_vec()).unwrap_or_default();
    let api_key = match &c.key_file {
        Some(path) => Some(read_key_file(path)?),
        None => std::iter::once("LLMOPS_LLM_API_KEY")
            .chain(key_env.iter().copied())
            .find_map(|k| nonempty(env, k))
            .map(ApiKey::new),
    };
    if api_key.is_none() && !key_env.is_empty() {
        return Err(LlmConfigError::NoKey {
            provider: provider.to_string(),
            vars: key_env.join(" / "),
        });
    }
    Ok(api_key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn env(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let m: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| m.get(k).cloned()
    }

    #[test]
    fn nothing_configured_is_offline() {
        assert!(resolve(LlmFileConfig::default(), &env(&[]))
            .expect("ok")
            .is_none());
        // An OpenAI key alone does not send data anywhere: providers other than the
        // legacy default must be chosen explicitly.
        assert!(
            resolve(LlmFileConfig::default(), &env(&[("OPENAI_API_KEY", "k")]))
                .expect("ok")
                .is_none()
        );
    }

    #[test]
    fn zhipu_key_selects_zhipu() {
        let s = resolve(LlmFileConfig::default(), &env(&[("ZHIPU_API_KEY", "zk")]))
            .expect("ok")
            .expect("configured");
        assert_eq!(s.provider, "zhipu");
        assert_eq!(s.default_model, "glm-4-flash");
        assert_eq!(s.models, ["glm-4-flash", "glm-4.5-flash"]);
        assert_eq!(s.egress_host(), "open.bigmodel.cn");
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("zk"));
        assert!(!format!("{s:?}").contains("zk\""));
        // ZHIPUAI_API_KEY wins over ZHIPU_API_KEY.
        let s = resolve(
            LlmFileConfig::default(),
            &env(&[("ZHIPU_API_KEY", "b"), ("ZHIPUAI_API_KEY", "a")]),
        )
        .expect("ok")
        .expect("configured");
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("a"));
    }

    #[test]
    fn explicit_offline_wins() {
        let c = LlmFileConfig {
            provider: Some("offline".into()),
            ..Default::default()
        };
        assert!(resolve(c, &env(&[("ZHIPUAI_API_KEY", "a")]))
            .expect("ok")
            .is_none());
    }

    #[test]
    fn presets_and_missing_keys() {
        let c = LlmFileConfig {
            provider: Some("openai".into()),
            ..Default::default()
        };
        let e = resolve(c.clone(), &env(&[])).expect_err("no key");
        assert!(e.to_string().contains("OPENAI_API_KEY"));
        let s = resolve(c, &env(&[("OPENAI_API_KEY", "k")]))
            .expect("ok")
            .expect("some");
        assert_eq!(s.base_url, "https://api.openai.com/v1");
        let s = resolve(
            LlmFileConfig {
                provider: Some("Ollama".into()),
                model: Some("llama3.1".into()),
                ..Default::default()
            },
            &env(&[]),
        )
        .expect("ok")
        .expect("some");
        assert_eq!(s.egress_host(), "127.0.0.1");
        assert_eq!(s.default_model, "llama3.1");
        assert_eq!(s.models[0], "llama3.1");
        assert!(s.api_key.is_none());
        let e = resolve(
            LlmFileConfig {
                provider: Some("acme".into()),
                ..Default::default()
            },
            &env(&[]),
        )
        .expect_err("unknown");
        assert!(matches!(e, LlmConfigError::UnknownProvider(_)));
    }

    #[test]
    fn custom_base_url() {
        let c = LlmFileConfig {
            base_url: Some("http://10.1.2.3:8000/v1/".into()),
            model: Some("qwen".into()),
            tool_calling: Some(false),
            ..Default::default()
        };
        let s = resolve(c, &env(&[("LLMOPS_LLM_API_KEY", "ck")]))
            .expect("ok")
            .expect("some");
        assert_eq!(s.provider, "custom");
        assert_eq!(s.base_url, "http://10.1.2.3:8000/v1");
        assert_eq!(s.models, ["qwen"]);
        assert!(!s.native_tools("qwen"));
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("ck"));
        let e = resolve(
            LlmFileConfig {
                base_url: Some("http://x/v1".into()),
                ..Default::default()
            },
            &env(&[]),
        )
        .expect_err("model needed");
        assert!(matches!(e, LlmConfigError::NoModel(_)));
        let e = resolve(
            LlmFileConfig {
                base_url: Some("ftp://x".into()),
                model: Some("m".into()),
                ..Default::default()
            },
            &env(&[]),
        )
        .expect_err("bad url");
        assert!(matches!(e, LlmConfigError::BadUrl(_)));
    }

    #[test]
    fn key_file_must_be_private() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().expect("tempdir");
        let p = d.path().join("key");
        std::fs::write(&p, "sk-file\n").expect("write");
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let c = LlmFileConfig {
            provider: Some("deepseek".into()),
            key_file: Some(p.clone()),
            ..Default::default()
        };
        let e = resolve(c.clone(), &env(&[])).expect_err("0644 refused");
        assert!(e.to_string().contains("chmod 600"), "{e}");
        assert!(e.to_string().contains("644"), "{e}");
        assert!(!e.to_string().contains("sk-file"));
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        let s = resolve(c, &env(&[("DEEPSEEK_API_KEY", "env")]))
            .expect("ok")
            .expect("some");
        assert_eq!(s.api_key.as_ref().map(ApiKey::expose), Some("sk-file"));
    }

    #[test]
    fn layering() {
        let hi = LlmFileConfig {
            model: Some("a".into()),
            ..Default::default()
        };
        let lo = LlmFileConfig {
            model: Some("b".into()),
            provider: Some("zhipu".into()),
            ..Default::default()
        };
        let m = hi.over(lo);
        assert_eq!(m.model.as_deref(), Some("a"));
        assert_eq!(m.provider.as_deref(), Some("zhipu"));
    }
}
