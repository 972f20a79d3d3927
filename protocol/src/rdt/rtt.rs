//! Round-trip time estimation and retransmission timeout per RFC 6298 (SRTT/RTTVAR,
//! exponential backoff with a cap). Callers apply Karn's rule by only feeding samples from
//! packets that were transmitted once.

use std::time::Duration;

/// Clock granularity term `G` of RFC 6298: keeps the RTO above SRTT on a jitter-free link.
const GRANULARITY: Duration = Duration::from_millis(1);

#[derive(Debug, Clone)]
pub(crate) struct RttEstimator {
    srtt: Option<Duration>,
    rttvar: Duration,
    min_rtt: Option<Duration>,
    initial: Duration,
    min_rto: Duration,
    max_rto: Duration,
    /// Number of consecutive backoffs applied on top of the computed RTO.
    backoff: u32,
}

impl RttEstimator {
    pub(crate) fn new(initial: Duration, min_rto: Duration, max_rto: Duration) -> Self {
        Self {
            srtt: None,
            rttvar: Duration::ZERO,
            min_rtt: None,
            initial,
            min_rto,
            max_rto,
            backoff: 0,
        }
    }

    /// Feeds one unambiguous sample; a fresh sample also ends any backoff (RFC 6298 5.7).
    pub(crate) fn sample(&mut self, r: Duration) {
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2;
            }
            Some(srtt) => {
                let diff = srtt.abs_diff(r);
                self.rttvar = self.rttvar * 3 / 4 + diff / 4;
                self.srtt = Some(srtt * 7 / 8 + r / 8);
            }
        }
        self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        self.backoff = 0;
    }

    /// Doubles the timeout after an expiry, up to the cap.
    pub(crate) fn back_off(&mut self) {
        self.backoff = self.backoff.saturating_add(1);
    }

    pub(crate) fn srtt(&self) -> Option<Duration> {
        self.srtt
    }

    pub(crate) fn min_rtt(&self) -> Option<Duration> {
        self.min_rtt
    }

    /// Current RTO including backoff, clamped to `[min_rto, max_rto]`.
    pub(crate) fn rto(&self) -> Duration {
        let base = match self.srtt {
            None => self.initial,
            Some(srtt) => srtt + GRANULARITY.max(self.rttvar * 4),
        };
        let base = base.clamp(self.min_rto, self.max_rto);
        // 2^16 times anything we use is past max_rto already; cap the shift to avoid overflow.
        let factor = 1u32 << self.backoff.min(16);
        base.saturating_mul(factor).min(self.max_rto)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rdt_rtt_rfc6298() {
        let ms = Duration::from_millis;
        let mut e = RttEstimator::new(ms(1000), ms(200), ms(4000));
        assert_eq!(e.rto(), ms(1000));
        e.sample(ms(100));
        // SRTT 100, RTTVAR 50 -> 100 + 200 = 300.
        assert_eq!(e.rto(), ms(300));
        e.sample(ms(100));
        // RTTVAR 37.5 -> 100 + 150 = 250.
        assert_eq!(e.rto(), ms(250));
        e.back_off();
        assert_eq!(e.rto(), ms(500));
        for _ in 0..40 {
            e.back_off();
        }
        assert_eq!(e.rto(), ms(4000));
        e.sample(ms(1));
        assert!(e.rto() >= ms(200));
    }
}
