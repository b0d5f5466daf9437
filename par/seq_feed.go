package par

import (
	"iter"

	"github.com/gofork/gofork/internal/lockfree"
)

// The feeder: the one goroutine that ranges over the sequence.
//
// Each item goes into slot pulled % n and is published by the store of
// pulled that follows (pumps load pulled before they claim, and read the
// slot after), so an item is out of the feeder's hands as soon as seq
// yields it. Before it returns to seq for the next item, the feeder makes
// sure the window has room for it (hasRoom): fewer than n items between
// published and consumed (MapSeq) or finished (ForEachSeq), and for
// ForEachSeq the slot's previous item copied out by its pump. So at most n
// items are ever out, whatever seq does; when there is no room the feeder
// sleeps until half the window is free (waitRoom).

// feedAndClose is feed on a goroutine of its own, which closes fed when it
// returns.
func (s *stream[E, R]) feedAndClose(seq iter.Seq[E]) {
	defer close(s.fed)
	s.feed(seq)
}

// feed ranges over seq, publishing each item, until seq returns or the
// stream stops. A panic of seq is recorded in seqPan, not propagated.
func (s *stream[E, R]) feed(seq iter.Seq[E]) {
	defer func() {
		// recover returns nil for runtime.Goexit: the stream just ends.
		if v := recover(); v != nil {
			s.seqPan = v
		}
		s.ended.Store(true) // after seqPan and the last pulled: whoever sees ended sees them
		s.signal()          // a consumer may wait for an item that will not come
	}()
	var i int64
	seq(func(e E) bool {
		if s.stop.Load() {
			return false
		}
		s.ring[i%s.n].e = e // room was made before seq was let go on
		i++
		// Publishes item i-1 (pairs with pulled.Load in claim), and is the
		// store half of kick's Dekker pair with retire: before its load of
		// active.
		lockfree.DekkerStoreInt64(&s.pulled, i)
		s.kick(i)
		if !s.hasRoom(i) && !s.waitRoom(i) {
			return false
		}
		return !s.stop.Load()
	})
}

// hasRoom reports whether item i may be written: the window holds fewer
// than n items, and (ForEachSeq) the slot's previous item has been copied
// out. Feeder only.
func (s *stream[E, R]) hasRoom(i int64) bool {
	if i >= s.roomUntil {
		s.roomUntil = s.consumed.Load() + s.n // pairs with the consumer's Store, the pumps' Add
		if i >= s.roomUntil {
			return false
		}
	}
	return s.ordered || i < s.n || s.ring[i%s.n].state.Load() == i-s.n+1 // pairs with the pump's Store after its copy
}

// waitRoom sleeps until item i may be written, and reports false if the
// stream stopped meanwhile. It announces itself (feederWaits), then looks
// again: the consumer, or a pump, stores its progress and then loads
// feederWaits (Dekker), so one of them sees the other.
func (s *stream[E, R]) waitRoom(i int64) bool {
	if s.spinUntil(func() bool { return s.hasRoom(i) || s.stop.Load() }) {
		return !s.stop.Load()
	}
	for !s.stop.Load() {
		lockfree.DekkerStoreBool(&s.feederWaits, true) // before the loads in hasRoom
		if s.hasRoom(i) {
			s.feederWaits.Store(false)
			return true
		}
		if s.stop.Load() {
			break
		}
		<-s.room
		s.feederWaits.Store(false)
	}
	s.feederWaits.Store(false)
	return false
}

// wakeFeeder wakes the feeder if it sleeps for room and half the window is
// free, done being the items consumed (MapSeq) or finished (ForEachSeq)
// just stored. Waking it for less would make it wake for every item when
// the consumer is the bottleneck.
func (s *stream[E, R]) wakeFeeder(done int64) {
	if s.feederWaits.Load() && s.pulled.Load()-done <= s.n/2 { // after the store of done: Dekker with waitRoom
		s.signalRoom()
	}
}

// signalRoom wakes the feeder if it sleeps; a token left over only makes it
// look again.
func (s *stream[E, R]) signalRoom() {
	select {
	case s.room <- struct{}{}:
	default:
	}
}
