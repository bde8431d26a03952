//! The whole hint block: `hintlens/hints` and the `hintlens.showHints` command.

use crate::config::Config;
use crate::dispatch::RequestError;
use crate::protocol::{HintsParams, HintsResult, SHOW_HINTS_COMMAND};
use crate::world::World;
use hintlens_db::Database;
use hintlens_hints::Selection;
use hintlens_projection::{Projection, render};
use lsp_types::ExecuteCommandParams;

pub(crate) fn hints(db: &Database, world: &World, params: Option<HintsParams>) -> Result<HintsResult, RequestError> {
    let (selection, projection) = choice(&world.config, params.unwrap_or_default())?;
    let identifiers = world.selection(db, selection).to_vec();
    Ok(HintsResult {
        text: render(&identifiers, projection),
        identifiers,
        indexing: false,
        selection: selection.to_string(),
        projection: projection.to_string(),
    })
}

/// What `hintlens/hints` answers while the repository is being indexed.
pub(crate) fn indexing(
    config: &Config,
    message: &str,
    params: Option<HintsParams>,
) -> Result<HintsResult, RequestError> {
    let (selection, projection) = choice(config, params.unwrap_or_default())?;
    Ok(HintsResult {
        text: message.to_owned(),
        identifiers: Vec::new(),
        indexing: true,
        selection: selection.to_string(),
        projection: projection.to_string(),
    })
}

/// The arguments of `hintlens.showHints`: `[]` or `[HintsParams]`.
pub(crate) fn command_params(params: ExecuteCommandParams) -> Result<Option<HintsParams>, RequestError> {
    if params.command != SHOW_HINTS_COMMAND {
        return Err(RequestError::invalid_params(format!(
            "unknown command `{}` (hintlens offers {SHOW_HINTS_COMMAND})",
            params.command
        )));
    }
    match params.arguments.as_slice() {
        [] => Ok(None),
        [argument] => serde_json::from_value(argument.clone())
            .map_err(|e| RequestError::invalid_params(format!("invalid argument of {SHOW_HINTS_COMMAND}: {e}"))),
        _ => Err(RequestError::invalid_params(format!(
            "{SHOW_HINTS_COMMAND} takes at most one argument, {{\"selection\"?, \"projection\"?}}"
        ))),
    }
}

fn choice(config: &Config, params: HintsParams) -> Result<(Selection, Projection), RequestError> {
    let selection = match params.selection {
        Some(s) => s.parse().map_err(RequestError::invalid_params)?,
        None => config.selection,
    };
    let projection = match params.projection {
        Some(p) => p.parse().map_err(RequestError::invalid_params)?,
        None => config.projection,
    };
    Ok((selection, projection))
}
