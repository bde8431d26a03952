//! python frontend (in progress)
