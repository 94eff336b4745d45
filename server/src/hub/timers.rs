//! What the hub of the lease holder runs on time: housekeeping (lease, presence, the room's time
//! to live), the takeover of dropped seats, clock flags, and the CPU's moves.

use super::actor::Hub;
use super::schedule::{CpuDecision, HEARTBEAT_TTL, KEEP_ALIVE_MS, KEEP_ALIVE_RETRY_MS};
use crate::error::RoomError;
use crate::play;
use crate::store::{RoomRecord, SeatKind};

impl Hub {
    /// Checks the lease (taken when free or when its holder left the live set), re-reads
    /// presence, and (holding the lease) writes it into the record. Runs when the hub starts,
    /// when presence changes, when an instance leaves the live set, and every minute as a safety
    /// net: never on a per-room timer.
    pub(super) async fn housekeeping(&mut self) {
        if self.gone {
            return;
        }
        let expired = self
            .record
            .as_ref()
            .is_some_and(|r| self.now() >= r.value.expires_at());
        if expired {
            self.reload().await;
            if self.gone {
                return;
            }
        }
        // Before the first heartbeat answered, the live set is unknown: no lease is taken (it may
        // be a live instance's) and presence is left as it was.
        let Some(live) = self.live.borrow().instances.clone() else {
            return;
        };
        let store = &self.context.store;
        match store
            .acquire_lease(&self.code, &self.context.config.instance, &live)
            .await
        {
            Ok(held) => {
                if held && !self.lease {
                    tracing::debug!(room = %self.code, "lease taken");
                }
                self.lease = held;
            }
            Err(error) => {
                tracing::warn!(room = %self.code, %error, "lease check failed");
                self.lease = false;
                // The store is down: the rest would wait for it in vain, and actions queue behind.
                return;
            }
        }
        if self.lease {
            self.reconcile_presence(&live).await;
            if !self.present.is_empty() {
                self.keep_alive().await;
            }
        } else if let Ok(present) = store.present_seats(&self.code, &live).await {
            if present != self.present {
                self.present = present;
                self.publish_snapshot();
            }
        }
    }

    /// Renews the room's time to live while someone is connected.
    async fn keep_alive(&mut self) {
        let now = self.now();
        if now.saturating_sub(self.kept_alive_at) < KEEP_ALIVE_MS {
            return;
        }
        let Some(record) = &self.record else {
            return;
        };
        let ttl = record.value.ttl(now);
        match self.context.store.touch(&self.code, ttl).await {
            Ok(true) => self.kept_alive_at = now,
            Ok(false) => self.reload().await,
            Err(error) => {
                tracing::warn!(room = %self.code, %error, "keep-alive failed");
                // Tried again in a few seconds, not at every wake.
                self.kept_alive_at = now.saturating_sub(KEEP_ALIVE_MS - KEEP_ALIVE_RETRY_MS);
            }
        }
    }

    /// Marks seats that lost their connection (`away_since`, the takeover's start) and seats
    /// that are back, and whether the room is empty (its 30 min expiry).
    pub(super) async fn reconcile_presence(&mut self, live: &[String]) {
        let store = &self.context.store;
        let Ok(mut present) = store.present_seats(&self.code, live).await else {
            return;
        };
        // The live set is as of this instance's last beat: an instance that started or came back
        // since (its first beat after an outage) is missing from it, and its connections would
        // count as gone. Before a seat is marked away, the set is read afresh (this instance's
        // own beat renewed, the others' as they stand): one more call, only when someone seems
        // to have left.
        if self.seat_seems_to_leave(&present) {
            let instance = &self.context.config.instance;
            if let Ok(fresh) = store.heartbeat(instance, HEARTBEAT_TTL).await {
                if let Ok(again) = store.present_seats(&self.code, &fresh).await {
                    present = again;
                }
            }
        }
        let changed_presence = present != self.present;
        self.present = present.clone();
        // The record says so already: nothing to write (an idle room costs no load).
        if self
            .record
            .as_ref()
            .is_some_and(|r| presence_recorded(&r.value, &present))
        {
            if changed_presence {
                self.publish_snapshot();
            }
            return;
        }
        let result = self
            .update(move |record, _, now| {
                for (index, seat) in record.seats.iter_mut().enumerate() {
                    let here = present.contains(&(index as u8));
                    if seat.kind != SeatKind::Human || seat.left {
                        continue;
                    }
                    if here {
                        seat.away_since = None;
                    } else if seat.away_since.is_none() {
                        seat.away_since = Some(now);
                    }
                }
                if present.is_empty() {
                    record.emptied_at = record.emptied_at.or(Some(now));
                } else {
                    record.emptied_at = None;
                }
                Ok(())
            })
            .await;
        if let Err(error) = result {
            tracing::debug!(room = %self.code, %error, "presence not recorded");
        }
        if changed_presence {
            self.publish_snapshot();
        }
    }

    /// Whether a human seat the record counts as here is missing from `present`.
    fn seat_seems_to_leave(&self, present: &[u8]) -> bool {
        self.record.as_ref().is_some_and(|record| {
            record.value.seats.iter().enumerate().any(|(index, seat)| {
                seat.kind == SeatKind::Human
                    && !seat.left
                    && seat.away_since.is_none()
                    && !present.contains(&(index as u8))
            })
        })
    }

    /// The next time the hub must act on its own: a seat's takeover, and (holding the lease) a
    /// clock flag or the first-move abort; the room's expiry; and (holding the lease with someone
    /// connected) the renewal of the room's time to live. All on the room's clock.
    pub(super) fn next_deadline(&self) -> Option<u64> {
        let record = &self.record.as_ref()?.value;
        let now = self.now();
        let mut deadlines: Vec<u64> = self.game_deadline().into_iter().collect();
        let expires_at = record.expires_at();
        if expires_at > now {
            deadlines.push(expires_at);
        }
        if self.lease && !self.present.is_empty() {
            deadlines.push(self.kept_alive_at.saturating_add(KEEP_ALIVE_MS));
        }
        deadlines.into_iter().min()
    }

    /// The next deadline of the game: a seat's takeover, and (holding the lease) a clock flag or
    /// the first-move abort.
    fn game_deadline(&self) -> Option<u64> {
        let record = &self.record.as_ref()?.value;
        let game = self.game.as_ref()?;
        let now = self.now();
        let takeover = self.takeover_ms();
        let mut deadlines: Vec<u64> = record
            .seats
            .iter()
            .filter_map(|s| s.away_since.map(|at| at.saturating_add(takeover)))
            .filter(|&at| at > now)
            .collect();
        if self.lease && record.started && record.result.is_none() && !game.is_over() {
            deadlines.extend(crate::clocks::flag_deadline(record, game.to_move()));
            deadlines.extend(crate::offers::abort_deadline(record));
        }
        deadlines.into_iter().min()
    }

    pub(super) async fn on_deadline(&mut self) {
        let now = self.now();
        if self
            .record
            .as_ref()
            .is_some_and(|r| now >= r.value.expires_at())
        {
            self.reload().await;
            if self.gone {
                return;
            }
        }
        if self.lease && !self.present.is_empty() {
            self.keep_alive().await;
        }
        if self.lease {
            // `update` applies a due flag; nothing else changes.
            let _ = self.update(|_, _, _| Ok(())).await;
        }
        self.publish_snapshot();
    }

    /// Starts the CPU's search when, holding the lease, a CPU-played seat is to move.
    pub(super) fn start_cpu_if_due(&mut self) {
        if !self.lease || self.cpu_thinking.is_some() || self.gone {
            return;
        }
        let (Some(record), Some(game)) = (&self.record, &self.game) else {
            return;
        };
        let record = &record.value;
        if !record.started || record.result.is_some() || game.is_over() {
            return;
        }
        let seat = game.to_move();
        if !play::cpu_controls(record, seat, self.now(), self.takeover_ms()) {
            return;
        }
        let ply = game.ply();
        self.cpu_thinking = Some(ply);
        let record = record.clone();
        let tx = self.cpu_tx.clone();
        let movetime = self.context.config.cpu_movetime;
        tokio::task::spawn_blocking(move || {
            let choice = play::cpu_choice(&record, seat, movetime);
            let _ = tx.send(CpuDecision {
                moves: record.moves,
                ply,
                seat,
                choice,
            });
        });
    }

    pub(super) async fn apply_cpu(&mut self, decision: CpuDecision) {
        self.cpu_thinking = None;
        let takeover = self.takeover_ms();
        let CpuDecision {
            moves,
            ply,
            seat,
            choice,
        } = decision;
        let text = match choice {
            Ok(Some(text)) => text,
            Ok(None) => return,
            Err(error) => {
                tracing::warn!(room = %self.code, %error, "CPU found no move");
                return;
            }
        };
        let result = self
            .update(|record, game, now| {
                let current = game.as_ref().ok_or(RoomError::Busy)?;
                // The game moved on, or the player came back, while the CPU thought.
                if current.ply() != ply
                    || record.moves != moves
                    || current.to_move() != seat
                    || !play::cpu_controls(record, seat, now, takeover)
                {
                    return Err(damas::session::SessionError::Cancelled.into());
                }
                play::play_move(record, game, seat, &text, Some(ply), now)
            })
            .await;
        if let Err(error) = result {
            tracing::debug!(room = %self.code, %error, "CPU move not applied");
        }
    }
}

/// Whether `record` already says who of `present` is here: no seat to mark away or back, and
/// the room's emptiness as it is.
fn presence_recorded(record: &RoomRecord, present: &[u8]) -> bool {
    let seats_match = record.seats.iter().enumerate().all(|(index, seat)| {
        if seat.kind != SeatKind::Human || seat.left {
            return true;
        }
        present.contains(&(index as u8)) == seat.away_since.is_none()
    });
    seats_match && present.is_empty() == record.emptied_at.is_some()
}
