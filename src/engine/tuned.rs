//! The tapered evaluation's weights, written by `knightfall-tune fit` (see
//! `tools/tune.sh`); edit by re-tuning, not by hand.
//!
//! 123507 positions from /tmp/s23/label-6.txt, /tmp/s23/label-7.txt, 111242 of them fitted and
//! 12265 held out; K = 1.1762; mean squared error 0.032899 before, 0.031959 after; on the held-out
//! positions 0.031991 before, 0.031318 after; the target 0.5 the score (its K 1.1397) and the rest
//! the result, and on the held-out results alone 0.079473 before, 0.079032 after (the best of 1500
//! epochs of Adam at rate 1 on the held-out games, regularised 0, tables frozen)

use super::params::{COUNT, S};

/// The weights, laid out as `params` describes.
#[rustfmt::skip]
pub static WEIGHTS: [S; COUNT] = [
    S(85, 114), // material pawn
    S(364, 356), // material knight
    S(386, 397), // material bishop
    S(530, 657), // material rook
    S(1092, 1247), // material queen
    S(0, 0), // material king
    S(0, 0), // pst pawn a1
    S(0, 0), // pst pawn b1
    S(0, 0), // pst pawn c1
    S(0, 0), // pst pawn d1
    S(0, 0), // pst pawn e1
    S(0, 0), // pst pawn f1
    S(0, 0), // pst pawn g1
    S(0, 0), // pst pawn h1
    S(-35, 13), // pst pawn a2
    S(-1, 8), // pst pawn b2
    S(-20, 8), // pst pawn c2
    S(-23, 10), // pst pawn d2
    S(-15, 13), // pst pawn e2
    S(24, 0), // pst pawn f2
    S(38, 2), // pst pawn g2
    S(-22, -7), // pst pawn h2
    S(-26, 4), // pst pawn a3
    S(-4, 7), // pst pawn b3
    S(-4, -6), // pst pawn c3
    S(-10, 1), // pst pawn d3
    S(3, 0), // pst pawn e3
    S(3, -5), // pst pawn f3
    S(33, -1), // pst pawn g3
    S(-12, -8), // pst pawn h3
    S(-27, 13), // pst pawn a4
    S(-2, 9), // pst pawn b4
    S(-5, -3), // pst pawn c4
    S(12, -7), // pst pawn d4
    S(17, -7), // pst pawn e4
    S(6, -8), // pst pawn f4
    S(10, 3), // pst pawn g4
    S(-25, -1), // pst pawn h4
    S(-14, 32), // pst pawn a5
    S(13, 24), // pst pawn b5
    S(6, 13), // pst pawn c5
    S(21, 5), // pst pawn d5
    S(23, -2), // pst pawn e5
    S(12, 4), // pst pawn f5
    S(17, 17), // pst pawn g5
    S(-23, 17), // pst pawn h5
    S(-6, 94), // pst pawn a6
    S(7, 100), // pst pawn b6
    S(26, 85), // pst pawn c6
    S(31, 67), // pst pawn d6
    S(65, 56), // pst pawn e6
    S(56, 53), // pst pawn f6
    S(25, 82), // pst pawn g6
    S(-20, 84), // pst pawn h6
    S(98, 178), // pst pawn a7
    S(134, 173), // pst pawn b7
    S(61, 158), // pst pawn c7
    S(95, 134), // pst pawn d7
    S(68, 147), // pst pawn e7
    S(126, 132), // pst pawn f7
    S(34, 165), // pst pawn g7
    S(-11, 187), // pst pawn h7
    S(0, 0), // pst pawn a8
    S(0, 0), // pst pawn b8
    S(0, 0), // pst pawn c8
    S(0, 0), // pst pawn d8
    S(0, 0), // pst pawn e8
    S(0, 0), // pst pawn f8
    S(0, 0), // pst pawn g8
    S(0, 0), // pst pawn h8
    S(-105, -29), // pst knight a1
    S(-21, -51), // pst knight b1
    S(-58, -23), // pst knight c1
    S(-33, -15), // pst knight d1
    S(-17, -22), // pst knight e1
    S(-28, -18), // pst knight f1
    S(-19, -50), // pst knight g1
    S(-23, -64), // pst knight h1
    S(-29, -42), // pst knight a2
    S(-53, -20), // pst knight b2
    S(-12, -10), // pst knight c2
    S(-3, -5), // pst knight d2
    S(-1, -2), // pst knight e2
    S(18, -20), // pst knight f2
    S(-14, -23), // pst knight g2
    S(-19, -44), // pst knight h2
    S(-23, -23), // pst knight a3
    S(-9, -3), // pst knight b3
    S(12, -1), // pst knight c3
    S(10, 15), // pst knight d3
    S(19, 10), // pst knight e3
    S(17, -3), // pst knight f3
    S(25, -20), // pst knight g3
    S(-16, -22), // pst knight h3
    S(-13, -18), // pst knight a4
    S(4, -6), // pst knight b4
    S(16, 16), // pst knight c4
    S(13, 25), // pst knight d4
    S(28, 16), // pst knight e4
    S(19, 17), // pst knight f4
    S(21, 4), // pst knight g4
    S(-8, -18), // pst knight h4
    S(-9, -17), // pst knight a5
    S(17, 3), // pst knight b5
    S(19, 22), // pst knight c5
    S(53, 22), // pst knight d5
    S(37, 22), // pst knight e5
    S(69, 11), // pst knight f5
    S(18, 8), // pst knight g5
    S(22, -18), // pst knight h5
    S(-47, -24), // pst knight a6
    S(60, -20), // pst knight b6
    S(37, 10), // pst knight c6
    S(65, 9), // pst knight d6
    S(84, -1), // pst knight e6
    S(129, -9), // pst knight f6
    S(73, -19), // pst knight g6
    S(44, -41), // pst knight h6
    S(-73, -25), // pst knight a7
    S(-41, -8), // pst knight b7
    S(72, -25), // pst knight c7
    S(36, -2), // pst knight d7
    S(23, -9), // pst knight e7
    S(62, -25), // pst knight f7
    S(7, -24), // pst knight g7
    S(-17, -52), // pst knight h7
    S(-167, -58), // pst knight a8
    S(-89, -38), // pst knight b8
    S(-34, -13), // pst knight c8
    S(-49, -28), // pst knight d8
    S(61, -31), // pst knight e8
    S(-97, -27), // pst knight f8
    S(-15, -63), // pst knight g8
    S(-107, -99), // pst knight h8
    S(-33, -23), // pst bishop a1
    S(-3, -9), // pst bishop b1
    S(-14, -23), // pst bishop c1
    S(-21, -5), // pst bishop d1
    S(-13, -9), // pst bishop e1
    S(-12, -16), // pst bishop f1
    S(-39, -5), // pst bishop g1
    S(-21, -17), // pst bishop h1
    S(4, -14), // pst bishop a2
    S(15, -18), // pst bishop b2
    S(16, -7), // pst bishop c2
    S(0, -1), // pst bishop d2
    S(7, 4), // pst bishop e2
    S(21, -9), // pst bishop f2
    S(33, -15), // pst bishop g2
    S(1, -27), // pst bishop h2
    S(0, -12), // pst bishop a3
    S(15, -3), // pst bishop b3
    S(15, 8), // pst bishop c3
    S(15, 10), // pst bishop d3
    S(14, 13), // pst bishop e3
    S(27, 3), // pst bishop f3
    S(18, -7), // pst bishop g3
    S(10, -15), // pst bishop h3
    S(-6, -6), // pst bishop a4
    S(13, 3), // pst bishop b4
    S(13, 13), // pst bishop c4
    S(26, 19), // pst bishop d4
    S(34, 7), // pst bishop e4
    S(12, 10), // pst bishop f4
    S(10, -3), // pst bishop g4
    S(4, -9), // pst bishop h4
    S(-4, -3), // pst bishop a5
    S(5, 9), // pst bishop b5
    S(19, 12), // pst bishop c5
    S(50, 9), // pst bishop d5
    S(37, 14), // pst bishop e5
    S(37, 10), // pst bishop f5
    S(7, 3), // pst bishop g5
    S(-2, 2), // pst bishop h5
    S(-16, 2), // pst bishop a6
    S(37, -8), // pst bishop b6
    S(43, 0), // pst bishop c6
    S(40, -1), // pst bishop d6
    S(35, -2), // pst bishop e6
    S(50, 6), // pst bishop f6
    S(37, 0), // pst bishop g6
    S(-2, 4), // pst bishop h6
    S(-26, -8), // pst bishop a7
    S(16, -4), // pst bishop b7
    S(-18, 7), // pst bishop c7
    S(-13, -12), // pst bishop d7
    S(30, -3), // pst bishop e7
    S(59, -13), // pst bishop f7
    S(18, -4), // pst bishop g7
    S(-47, -14), // pst bishop h7
    S(-29, -14), // pst bishop a8
    S(4, -21), // pst bishop b8
    S(-82, -11), // pst bishop c8
    S(-37, -8), // pst bishop d8
    S(-25, -7), // pst bishop e8
    S(-42, -9), // pst bishop f8
    S(7, -17), // pst bishop g8
    S(-8, -24), // pst bishop h8
    S(-19, -9), // pst rook a1
    S(-13, 2), // pst rook b1
    S(1, 3), // pst rook c1
    S(17, -1), // pst rook d1
    S(16, -5), // pst rook e1
    S(7, -13), // pst rook f1
    S(-37, 4), // pst rook g1
    S(-26, -20), // pst rook h1
    S(-44, -6), // pst rook a2
    S(-16, -6), // pst rook b2
    S(-20, 0), // pst rook c2
    S(-9, 2), // pst rook d2
    S(-1, -9), // pst rook e2
    S(11, -9), // pst rook f2
    S(-6, -11), // pst rook g2
    S(-71, -3), // pst rook h2
    S(-45, -4), // pst rook a3
    S(-25, 0), // pst rook b3
    S(-16, -5), // pst rook c3
    S(-17, -1), // pst rook d3
    S(3, -7), // pst rook e3
    S(0, -12), // pst rook f3
    S(-5, -8), // pst rook g3
    S(-33, -16), // pst rook h3
    S(-36, 3), // pst rook a4
    S(-26, 5), // pst rook b4
    S(-12, 8), // pst rook c4
    S(-1, 4), // pst rook d4
    S(9, -5), // pst rook e4
    S(-7, -6), // pst rook f4
    S(6, -8), // pst rook g4
    S(-23, -11), // pst rook h4
    S(-24, 4), // pst rook a5
    S(-11, 3), // pst rook b5
    S(7, 13), // pst rook c5
    S(26, 1), // pst rook d5
    S(24, 2), // pst rook e5
    S(35, 1), // pst rook f5
    S(-8, -1), // pst rook g5
    S(-20, 2), // pst rook h5
    S(-5, 7), // pst rook a6
    S(19, 7), // pst rook b6
    S(26, 7), // pst rook c6
    S(36, 5), // pst rook d6
    S(17, 4), // pst rook e6
    S(45, -3), // pst rook f6
    S(61, -5), // pst rook g6
    S(16, -3), // pst rook h6
    S(27, 11), // pst rook a7
    S(32, 13), // pst rook b7
    S(58, 13), // pst rook c7
    S(62, 11), // pst rook d7
    S(80, -3), // pst rook e7
    S(67, 3), // pst rook f7
    S(26, 8), // pst rook g7
    S(44, 3), // pst rook h7
    S(32, 13), // pst rook a8
    S(42, 10), // pst rook b8
    S(32, 18), // pst rook c8
    S(51, 15), // pst rook d8
    S(63, 12), // pst rook e8
    S(9, 12), // pst rook f8
    S(31, 8), // pst rook g8
    S(43, 5), // pst rook h8
    S(-1, -33), // pst queen a1
    S(-18, -28), // pst queen b1
    S(-9, -22), // pst queen c1
    S(10, -43), // pst queen d1
    S(-15, -5), // pst queen e1
    S(-25, -32), // pst queen f1
    S(-31, -20), // pst queen g1
    S(-50, -41), // pst queen h1
    S(-35, -22), // pst queen a2
    S(-8, -23), // pst queen b2
    S(11, -30), // pst queen c2
    S(2, -16), // pst queen d2
    S(8, -16), // pst queen e2
    S(15, -23), // pst queen f2
    S(-3, -36), // pst queen g2
    S(1, -32), // pst queen h2
    S(-14, -16), // pst queen a3
    S(2, -27), // pst queen b3
    S(-11, 15), // pst queen c3
    S(-2, 6), // pst queen d3
    S(-5, 9), // pst queen e3
    S(2, 17), // pst queen f3
    S(14, 10), // pst queen g3
    S(5, 5), // pst queen h3
    S(-9, -18), // pst queen a4
    S(-26, 28), // pst queen b4
    S(-9, 19), // pst queen c4
    S(-10, 47), // pst queen d4
    S(-2, 31), // pst queen e4
    S(-4, 34), // pst queen f4
    S(3, 39), // pst queen g4
    S(-3, 23), // pst queen h4
    S(-27, 3), // pst queen a5
    S(-27, 22), // pst queen b5
    S(-16, 24), // pst queen c5
    S(-16, 45), // pst queen d5
    S(-1, 57), // pst queen e5
    S(17, 40), // pst queen f5
    S(-2, 57), // pst queen g5
    S(1, 36), // pst queen h5
    S(-13, -20), // pst queen a6
    S(-17, 6), // pst queen b6
    S(7, 9), // pst queen c6
    S(8, 49), // pst queen d6
    S(29, 47), // pst queen e6
    S(56, 35), // pst queen f6
    S(47, 19), // pst queen g6
    S(57, 9), // pst queen h6
    S(-24, -17), // pst queen a7
    S(-39, 20), // pst queen b7
    S(-5, 32), // pst queen c7
    S(1, 41), // pst queen d7
    S(-16, 58), // pst queen e7
    S(57, 25), // pst queen f7
    S(28, 30), // pst queen g7
    S(54, 0), // pst queen h7
    S(-28, -9), // pst queen a8
    S(0, 22), // pst queen b8
    S(29, 22), // pst queen c8
    S(12, 27), // pst queen d8
    S(59, 27), // pst queen e8
    S(44, 19), // pst queen f8
    S(43, 10), // pst queen g8
    S(45, 20), // pst queen h8
    S(-15, -53), // pst king a1
    S(36, -34), // pst king b1
    S(12, -21), // pst king c1
    S(-54, -11), // pst king d1
    S(8, -28), // pst king e1
    S(-28, -14), // pst king f1
    S(24, -24), // pst king g1
    S(14, -43), // pst king h1
    S(1, -27), // pst king a2
    S(7, -11), // pst king b2
    S(-8, 4), // pst king c2
    S(-64, 13), // pst king d2
    S(-43, 14), // pst king e2
    S(-16, 4), // pst king f2
    S(9, -5), // pst king g2
    S(8, -17), // pst king h2
    S(-14, -19), // pst king a3
    S(-14, -3), // pst king b3
    S(-22, 11), // pst king c3
    S(-46, 21), // pst king d3
    S(-44, 23), // pst king e3
    S(-30, 16), // pst king f3
    S(-15, 7), // pst king g3
    S(-27, -9), // pst king h3
    S(-49, -18), // pst king a4
    S(-1, -4), // pst king b4
    S(-27, 21), // pst king c4
    S(-39, 24), // pst king d4
    S(-46, 27), // pst king e4
    S(-44, 23), // pst king f4
    S(-33, 9), // pst king g4
    S(-51, -11), // pst king h4
    S(-17, -8), // pst king a5
    S(-20, 22), // pst king b5
    S(-12, 24), // pst king c5
    S(-27, 27), // pst king d5
    S(-30, 26), // pst king e5
    S(-25, 33), // pst king f5
    S(-14, 26), // pst king g5
    S(-36, 3), // pst king h5
    S(-9, 10), // pst king a6
    S(24, 17), // pst king b6
    S(2, 23), // pst king c6
    S(-16, 15), // pst king d6
    S(-20, 20), // pst king e6
    S(6, 45), // pst king f6
    S(22, 44), // pst king g6
    S(-22, 13), // pst king h6
    S(29, -12), // pst king a7
    S(-1, 17), // pst king b7
    S(-20, 14), // pst king c7
    S(-7, 17), // pst king d7
    S(-8, 17), // pst king e7
    S(-4, 38), // pst king f7
    S(-38, 23), // pst king g7
    S(-29, 11), // pst king h7
    S(-65, -74), // pst king a8
    S(23, -35), // pst king b8
    S(16, -18), // pst king c8
    S(-15, -18), // pst king d8
    S(-56, -11), // pst king e8
    S(-34, 15), // pst king f8
    S(2, 4), // pst king g8
    S(13, -17), // pst king h8
    S(-16, -51), // mobility knight 0
    S(9, -27), // mobility knight 1
    S(15, 37), // mobility knight 2
    S(17, 45), // mobility knight 3
    S(18, 52), // mobility knight 4
    S(19, 56), // mobility knight 5
    S(20, 60), // mobility knight 6
    S(10, 54), // mobility knight 7
    S(7, 47), // mobility knight 8
    S(-16, 0), // mobility bishop 0
    S(-12, 0), // mobility bishop 1
    S(-1, 16), // mobility bishop 2
    S(1, 23), // mobility bishop 3
    S(6, 41), // mobility bishop 4
    S(8, 52), // mobility bishop 5
    S(11, 49), // mobility bishop 6
    S(9, 56), // mobility bishop 7
    S(2, 56), // mobility bishop 8
    S(-5, 60), // mobility bishop 9
    S(2, 53), // mobility bishop 10
    S(-48, 70), // mobility bishop 11
    S(-154, 100), // mobility bishop 12
    S(-29, 102), // mobility bishop 13
    S(-22, 5), // mobility rook 0
    S(-10, 23), // mobility rook 1
    S(-9, 23), // mobility rook 2
    S(-1, 31), // mobility rook 3
    S(-1, 43), // mobility rook 4
    S(6, 40), // mobility rook 5
    S(5, 53), // mobility rook 6
    S(7, 53), // mobility rook 7
    S(15, 54), // mobility rook 8
    S(7, 64), // mobility rook 9
    S(19, 60), // mobility rook 10
    S(31, 58), // mobility rook 11
    S(32, 66), // mobility rook 12
    S(47, 43), // mobility rook 13
    S(15, 60), // mobility rook 14
    S(19, -173), // mobility queen 0
    S(15, -109), // mobility queen 1
    S(-2, 95), // mobility queen 2
    S(0, 57), // mobility queen 3
    S(6, 19), // mobility queen 4
    S(9, 32), // mobility queen 5
    S(10, 51), // mobility queen 6
    S(8, 73), // mobility queen 7
    S(11, 58), // mobility queen 8
    S(16, 53), // mobility queen 9
    S(16, 65), // mobility queen 10
    S(19, 69), // mobility queen 11
    S(19, 65), // mobility queen 12
    S(16, 82), // mobility queen 13
    S(29, 87), // mobility queen 14
    S(12, 101), // mobility queen 15
    S(13, 86), // mobility queen 16
    S(19, 78), // mobility queen 17
    S(-24, 126), // mobility queen 18
    S(12, 83), // mobility queen 19
    S(63, 85), // mobility queen 20
    S(53, 35), // mobility queen 21
    S(148, -3), // mobility queen 22
    S(115, 15), // mobility queen 23
    S(-106, 153), // mobility queen 24
    S(47, 71), // mobility queen 25
    S(100, 115), // mobility queen 26
    S(404, -54), // mobility queen 27
    S(7, -18), // king attack units knight
    S(11, -5), // king attack units bishop
    S(49, 6), // king attack units rook
    S(-18, 114), // king attack units queen
    S(0, 0), // king attack weight 0
    S(0, 0), // king attack weight 1
    S(0, 36), // king attack weight 2
    S(20, 103), // king attack weight 3
    S(51, 187), // king attack weight 4
    S(92, 187), // king attack weight 5
    S(200, 200), // king attack weight 6
    S(200, 200), // king attack weight 7
    S(0, 0), // threat by pawn pawn
    S(61, 11), // threat by pawn knight
    S(46, 57), // threat by pawn bishop
    S(60, 5), // threat by pawn rook
    S(69, -86), // threat by pawn queen
    S(0, 0), // threat by pawn king
    S(0, 0), // threat by minor pawn
    S(0, 0), // threat by minor knight
    S(0, 0), // threat by minor bishop
    S(53, 10), // threat by minor rook
    S(21, 72), // threat by minor queen
    S(0, 0), // threat by minor king
    S(15, 38), // hanging pawn
    S(17, 31), // hanging knight
    S(20, 33), // hanging bishop
    S(15, 13), // hanging rook
    S(14, -8), // hanging queen
    S(0, 0), // hanging king
    S(0, 0), // passed 0
    S(0, 29), // passed 1
    S(-20, 30), // passed 2
    S(-91, 82), // passed 3
    S(2, 82), // passed 4
    S(229, 15), // passed 5
    S(162, -197), // passed 6
    S(0, 0), // passed 7
    S(0, 0), // passed free 0
    S(-13, 11), // passed free 1
    S(4, 0), // passed free 2
    S(-23, 23), // passed free 3
    S(3, 29), // passed free 4
    S(-25, 52), // passed free 5
    S(82, 205), // passed free 6
    S(0, 0), // passed free 7
    S(-1, -14), // isolated
    S(-14, -21), // doubled
    S(24, 74), // bishop pair
    S(24, 6), // rook open file
    S(10, 7), // rook semi-open file
    S(26, 13), // tempo
    S(15, -11), // pawn shield 0
    S(8, -9), // pawn shield 1
    S(0, 0), // passed own king distance 0
    S(10, -3), // passed own king distance 1
    S(10, -8), // passed own king distance 2
    S(17, -20), // passed own king distance 3
    S(6, -27), // passed own king distance 4
    S(-31, -21), // passed own king distance 5
    S(-8, -27), // passed own king distance 6
    S(0, 0), // passed own king distance 7
    S(0, 0), // passed enemy king distance 0
    S(-5, -3), // passed enemy king distance 1
    S(-7, 6), // passed enemy king distance 2
    S(3, 14), // passed enemy king distance 3
    S(-7, 30), // passed enemy king distance 4
    S(3, 37), // passed enemy king distance 5
    S(-12, 54), // passed enemy king distance 6
    S(0, 0), // passed enemy king distance 7
    S(0, 0), // supported pawn 0
    S(0, 0), // supported pawn 1
    S(12, 9), // supported pawn 2
    S(13, 5), // supported pawn 3
    S(28, 8), // supported pawn 4
    S(48, 43), // supported pawn 5
    S(288, -12), // supported pawn 6
    S(0, 0), // supported pawn 7
    S(0, 0), // phalanx pawn 0
    S(5, -3), // phalanx pawn 1
    S(0, 2), // phalanx pawn 2
    S(13, 16), // phalanx pawn 3
    S(23, 31), // phalanx pawn 4
    S(-3, 87), // phalanx pawn 5
    S(-166, 153), // phalanx pawn 6
    S(0, 0), // phalanx pawn 7
    S(47, -6), // safe check knight
    S(-3, 24), // safe check bishop
    S(28, 6), // safe check rook
    S(20, 27), // safe check queen
    S(28, 2), // outpost knight
    S(33, -3), // outpost bishop
    S(-9, -17), // backward pawn
    S(-8, 4), // rook on seventh
    S(6, 21), // minor behind pawn
    S(-27, -5), // king open file open
    S(-11, 12), // king open file semi-open
    S(22, 26), // pawn storm 1
    S(-17, 18), // pawn storm 2
    S(-10, 6), // pawn storm 3
    S(17, 14), // pawn push threat
    S(2, -10), // bishop pawns
    S(-2, 27), // rook behind passer own
    S(-41, -35), // rook behind passer enemy
    S(0, 0), // passed blocked 0
    S(-6, -9), // passed blocked 1
    S(-1, -14), // passed blocked 2
    S(0, -20), // passed blocked 3
    S(-4, 0), // passed blocked 4
    S(-16, -12), // passed blocked 5
    S(-39, 113), // passed blocked 6
    S(0, 0), // passed blocked 7
    S(0, 0), // pawn storm blocked 1
    S(17, -19), // pawn storm blocked 2
    S(15, -4), // pawn storm blocked 3
    S(-5, -2), // king zone weak
    S(-3, 8), // pinned pawn
    S(-31, -70), // pinned knight
    S(-20, -71), // pinned bishop
    S(-105, 40), // pinned rook
    S(-57, -30), // pinned queen
    S(-6, -6), // space safe
    S(2, 1), // space behind pawn
    S(85, 4), // rook on queen
];
