//! Server-initiated work-done progress for indexing (`window/workDoneProgress/create`, then
//! `$/progress` begin, reports, end).
//!
//! LSP forbids using a token before the client has answered its creation, so until then the
//! latest state is only remembered; the answer sends `begin` with it (and `end` at once if
//! indexing already finished).

use lsp_types::{
    NumberOrString, ProgressParams, ProgressParamsValue, WorkDoneProgress, WorkDoneProgressBegin, WorkDoneProgressEnd,
    WorkDoneProgressReport,
};

/// The two stages of indexing ([`crate::indexer::Report`]).
#[derive(Clone, Copy)]
pub(crate) enum Stage {
    Scanning,
    ReadingWords,
}

pub(crate) struct Progress {
    pub token: NumberOrString,
    acknowledged: bool,
    message: String,
    percentage: u32,
    /// The end message, when indexing ended before the client acknowledged the token.
    ended: Option<String>,
}

/// What to do after a state change: `$/progress` notifications to send, and whether the
/// progress is over (and so can be forgotten).
pub(crate) struct Step {
    pub notifications: Vec<ProgressParams>,
    pub finished: bool,
}

impl Progress {
    pub(crate) fn new(token: String) -> Progress {
        Progress {
            token: NumberOrString::String(token),
            acknowledged: false,
            message: "indexing".to_owned(),
            percentage: 0,
            ended: None,
        }
    }

    /// The client answered the creation request (`ok`: without an error).
    pub(crate) fn created(&mut self, ok: bool) -> Step {
        if !ok {
            return Step { notifications: Vec::new(), finished: true };
        }
        self.acknowledged = true;
        let mut notifications = vec![self.params(WorkDoneProgress::Begin(WorkDoneProgressBegin {
            title: "hintlens".to_owned(),
            cancellable: Some(false),
            message: Some(self.message.clone()),
            percentage: Some(self.percentage),
        }))];
        let finished = self.ended.is_some();
        if let Some(message) = self.ended.take() {
            notifications.push(self.end_params(message));
        }
        Step { notifications, finished }
    }

    /// Where `stage` stands: `done` of `total` files. The scan is the first tenth of the bar
    /// (it mostly asks `stat`), the words the rest.
    pub(crate) fn report(&mut self, stage: Stage, done: usize, total: usize) -> Step {
        let share = (done * 100 / total.max(1)).min(100) as u32;
        let (percentage, message) = match stage {
            Stage::Scanning => (share / 10, format!("comparing the work tree with the base: {done}/{total} files")),
            Stage::ReadingWords => {
                (10 + share * 9 / 10, format!("ready; reading words in the background: {done}/{total} files"))
            }
        };
        self.message = message;
        // One report per percent: a large repository has thousands of progress events.
        if !self.acknowledged || percentage == self.percentage {
            self.percentage = percentage;
            return Step { notifications: Vec::new(), finished: false };
        }
        self.percentage = percentage;
        let report = WorkDoneProgress::Report(WorkDoneProgressReport {
            cancellable: Some(false),
            message: Some(self.message.clone()),
            percentage: Some(percentage),
        });
        Step { notifications: vec![self.params(report)], finished: false }
    }

    pub(crate) fn end(&mut self, message: String) -> Step {
        if !self.acknowledged {
            self.ended = Some(message);
            return Step { notifications: Vec::new(), finished: false };
        }
        Step { notifications: vec![self.end_params(message)], finished: true }
    }

    fn end_params(&self, message: String) -> ProgressParams {
        self.params(WorkDoneProgress::End(WorkDoneProgressEnd { message: Some(message) }))
    }

    fn params(&self, value: WorkDoneProgress) -> ProgressParams {
        ProgressParams { token: self.token.clone(), value: ProgressParamsValue::WorkDone(value) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(step: &Step) -> Vec<&'static str> {
        step.notifications
            .iter()
            .map(|p| match &p.value {
                ProgressParamsValue::WorkDone(WorkDoneProgress::Begin(_)) => "begin",
                ProgressParamsValue::WorkDone(WorkDoneProgress::Report(_)) => "report",
                ProgressParamsValue::WorkDone(WorkDoneProgress::End(_)) => "end",
            })
            .collect()
    }

    #[test]
    fn nothing_is_sent_before_the_client_acknowledges_the_token() {
        let mut p = Progress::new("t".into());
        assert!(kinds(&p.report(Stage::Scanning, 5, 100)).is_empty());
        assert_eq!(kinds(&p.created(true)), ["begin"]);
        assert_eq!(kinds(&p.report(Stage::ReadingWords, 6, 10)), ["report"]);
        assert!(kinds(&p.report(Stage::ReadingWords, 6, 10)).is_empty(), "the same percentage is not reported twice");
        let end = p.end("done".into());
        assert_eq!((kinds(&end), end.finished), (vec!["end"], true));
    }

    #[test]
    fn an_end_before_the_acknowledgement_is_sent_with_the_begin() {
        let mut p = Progress::new("t".into());
        assert!(!p.end("done".into()).finished);
        let step = p.created(true);
        assert_eq!((kinds(&step), step.finished), (vec!["begin", "end"], true));
        let mut refused = Progress::new("u".into());
        assert!(refused.created(false).finished);
    }
}
