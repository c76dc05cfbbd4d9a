//! A match participant as the command line configures it: how to start it
//! ([`Launch`]), its protocol, the options sent at start-up and its search
//! limits; and the `key=value` settings of `--engine` / `--each` that build
//! it ([`apply_setting`]).
//!
//! Invariant: a configuration is plain data; nothing here starts a process
//! (`client.rs` and the protocol clients do).

use super::clock::{seconds, Limits, TimeControl};
use super::process::Launch;

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Universal Chess Interface (chess, Chess960).
    Uci,
    /// Hub v2 (draughts).
    Hub,
    /// DamExchange over TCP (international draughts; see `dxp_client.rs`).
    Dxp,
}

/// One engine as configured on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// Display name (unique within a match).
    pub name: String,
    /// How to start it.
    pub launch: Launch,
    /// Its protocol.
    pub protocol: Protocol,
    /// Options sent at start-up (`setoption` / `set-param`), in order.
    pub options: Vec<(String, String)>,
    /// Search limits for this engine (the match's, unless overridden).
    pub limits: Limits,
}

/// Reads `key=value` engine settings (`name=`, `cmd=`, `arg=`, `dir=`,
/// `proto=`, `option.X=`, and the per-engine limits `tc=`, `st=`, `nodes=`,
/// `depth=`) into `config`. Later tokens override earlier ones, so `--each`
/// tokens are applied first and an engine's own after.
pub fn apply_setting(config: &mut EngineConfig, token: &str) -> Result<(), String> {
    let (key, value) =
        token.split_once('=').ok_or_else(|| format!("expected key=value, got '{token}'"))?;
    let number = |what: &str| value.parse::<u64>().map_err(|_| format!("bad {what} '{value}'"));
    match key {
        "name" => config.name = value.to_string(),
        "cmd" => config.launch.cmd = value.to_string(),
        "arg" | "args" => config.launch.args.extend(value.split_whitespace().map(String::from)),
        "dir" => config.launch.dir = Some(value.to_string()),
        "proto" | "protocol" => {
            config.protocol = match value {
                "uci" => Protocol::Uci,
                "hub" => Protocol::Hub,
                "dxp" => Protocol::Dxp,
                _ => return Err(format!("unknown protocol '{value}'")),
            }
        }
        "tc" => config.limits.tc = Some(TimeControl::parse(value)?),
        "st" | "movetime" => {
            let time = seconds(value, "movetime")?;
            if time.is_zero() {
                return Err(format!("bad movetime '{value}' (must be positive)"));
            }
            config.limits.movetime = Some(time);
        }
        "nodes" => config.limits.nodes = Some(number("node count")?),
        "depth" => config.limits.depth = Some(number("depth")? as u32),
        _ => match key.strip_prefix("option.") {
            Some(name) if !name.is_empty() => {
                config.options.retain(|(n, _)| n != name);
                config.options.push((name.to_string(), value.to_string()));
            }
            _ => return Err(format!("unknown engine setting '{key}'")),
        },
    }
    Ok(())
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            name: String::new(),
            launch: Launch::default(),
            protocol: Protocol::Uci,
            options: Vec::new(),
            limits: Limits::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_apply_in_order() {
        let mut c = EngineConfig::default();
        for t in [
            "tc=10+0.1",
            "option.Hash=16",
            "name=sf",
            "cmd=/usr/games/stockfish",
            "option.Hash=32",
            "arg=-x",
        ] {
            apply_setting(&mut c, t).unwrap();
        }
        assert_eq!(c.name, "sf");
        assert_eq!(c.options, vec![("Hash".to_string(), "32".to_string())]);
        assert_eq!(c.launch.args, vec!["-x".to_string()]);
        assert!(c.limits.tc.is_some());
        assert!(apply_setting(&mut c, "proto=xboard").is_err());
        apply_setting(&mut c, "proto=dxp").unwrap();
        assert_eq!(c.protocol, Protocol::Dxp);
        assert!(apply_setting(&mut c, "bogus").is_err());
        assert!(apply_setting(&mut c, "st=0").is_err());
        assert!(apply_setting(&mut c, "st=1e20").is_err());
        assert!(apply_setting(&mut c, "tc=1e20+0").is_err());
    }
}
