//! The configuration file: TOML, one optional `[provider]` table.

use serde::Deserialize;
use std::path::Path;
use std::time::Duration;

const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// A configuration file as a whole.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Config {
    pub provider: Option<ProviderConfig>,
}

/// Where descriptions come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderConfig {
    Command { argv: Vec<String>, timeout: Duration },
    OpenAi { url: String, model: String, api_key_env: Option<String>, timeout: Duration },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    provider: Option<RawProvider>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProvider {
    command: Option<Vec<String>>,
    url: Option<String>,
    model: Option<String>,
    api_key_env: Option<String>,
    timeout_seconds: Option<u64>,
}

/// Reads and checks a configuration file.
pub fn load_config(path: &Path) -> Result<Config, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_config(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub(crate) fn parse_config(text: &str) -> Result<Config, String> {
    let raw: RawConfig = toml::from_str(text).map_err(|e| e.to_string())?;
    let Some(p) = raw.provider else { return Ok(Config::default()) };
    let timeout = p.timeout_seconds.map_or(DEFAULT_TIMEOUT, Duration::from_secs);
    let provider = match (p.command, p.url) {
        (Some(argv), None) if !argv.is_empty() && p.model.is_none() && p.api_key_env.is_none() => {
            ProviderConfig::Command { argv, timeout }
        }
        (None, Some(url)) => {
            let model = p.model.ok_or("[provider] with `url` needs `model`")?;
            ProviderConfig::OpenAi { url, model, api_key_env: p.api_key_env, timeout }
        }
        (Some(_), Some(_)) => return Err("[provider] names both `command` and `url`: choose one".into()),
        (Some(argv), None) if argv.is_empty() => return Err("[provider] `command` is empty".into()),
        (Some(_), None) => return Err("[provider] `model` and `api_key_env` go with `url`, not `command`".into()),
        (None, None) => return Err("[provider] needs `command` or `url`".into()),
    };
    Ok(Config { provider: Some(provider) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_and_endpoint_providers() {
        let c = parse_config("[provider]\ncommand = [\"sh\", \"describe.sh\"]\n").unwrap();
        assert_eq!(
            c.provider,
            Some(ProviderConfig::Command { argv: vec!["sh".into(), "describe.sh".into()], timeout: DEFAULT_TIMEOUT })
        );
        let c = parse_config("[provider]\nurl = \"http://127.0.0.1:9/v1/chat/completions\"\nmodel = \"m\"\napi_key_env = \"KEY\"\ntimeout_seconds = 5\n").unwrap();
        assert_eq!(
            c.provider,
            Some(ProviderConfig::OpenAi {
                url: "http://127.0.0.1:9/v1/chat/completions".into(),
                model: "m".into(),
                api_key_env: Some("KEY".into()),
                timeout: Duration::from_secs(5),
            })
        );
        assert_eq!(parse_config("").unwrap(), Config::default());
    }

    #[test]
    fn mistakes_are_explained() {
        assert!(parse_config("[provider]\n").unwrap_err().contains("needs `command` or `url`"));
        assert!(parse_config("[provider]\ncommand = [\"x\"]\nurl = \"u\"\n").unwrap_err().contains("both"));
        assert!(parse_config("[provider]\nurl = \"u\"\n").unwrap_err().contains("needs `model`"));
        assert!(parse_config("[provider]\ncommand = []\n").unwrap_err().contains("empty"));
        assert!(parse_config("[provder]\n").is_err());
    }
}
