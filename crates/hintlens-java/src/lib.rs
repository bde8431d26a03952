//! java frontend (in progress)
