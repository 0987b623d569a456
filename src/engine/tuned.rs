//! The tapered evaluation's weights, written by `knightfall-tune fit` (see
//! `tools/tune.sh`); edit by re-tuning, not by hand.
//!
//! How these were made, with the repository's tools: five rounds of `tools/tune.sh`; then 20,000
//! more self-play games from the round-5 weights (`knightfall-tune gen --games 10000 --nodes 6000
//! --seed 6`, and `--seed 7`); Stockfish 15.1's score of every tenth position of both at 10,000
//! nodes (`tools/sf-label.py --every 10 --nodes 10000`, again with `--offsets 5`, and for seed 6
//! with `--offsets 2,8`); and two fits to half the result and half the score: `knightfall-tune fit
//! --score-weight 0.5 --freeze-tables --epochs 1500` on the first two files, then from those
//! weights `fit --score-weight 0.5 --min-count 300 --epochs 1500` on all five. The last fit said:
//! 371932 positions from label-6.txt, label-7.txt, label-off5-6.txt, label-off5-7.txt,
//! label-off28-6.txt, 335109 of them fitted and 36823 held out; K = 1.1841; mean squared error
//! 0.032128 before, 0.031115 after; on the held-out positions 0.031322 before, 0.030975 after; the
//! target 0.5 the score (its K 1.1343) and the rest the result, and on the held-out results alone
//! 0.078881 before, 0.078613 after (the best of 1500 epochs of Adam at rate 1 on the held-out
//! games, regularised 0, the 103 table values (middlegame or endgame) met fewer than 300 times
//! frozen)

use super::params::{COUNT, S};

/// The weights, laid out as `params` describes.
#[rustfmt::skip]
pub static WEIGHTS: [S; COUNT] = [
    S(80, 102), // material pawn
    S(370, 355), // material knight
    S(378, 400), // material bishop
    S(504, 656), // material rook
    S(1007, 1226), // material queen
    S(0, 0), // material king
    S(0, 0), // pst pawn a1
    S(0, 0), // pst pawn b1
    S(0, 0), // pst pawn c1
    S(0, 0), // pst pawn d1
    S(0, 0), // pst pawn e1
    S(0, 0), // pst pawn f1
    S(0, 0), // pst pawn g1
    S(0, 0), // pst pawn h1
    S(-10, 23), // pst pawn a2
    S(-1, 17), // pst pawn b2
    S(-1, 11), // pst pawn c2
    S(-15, 23), // pst pawn d2
    S(0, 27), // pst pawn e2
    S(17, 15), // pst pawn f2
    S(22, 9), // pst pawn g2
    S(-16, 9), // pst pawn h2
    S(-9, 14), // pst pawn a3
    S(-7, 11), // pst pawn b3
    S(-10, 4), // pst pawn c3
    S(-9, 15), // pst pawn d3
    S(-2, 10), // pst pawn e3
    S(-6, 4), // pst pawn f3
    S(3, 1), // pst pawn g3
    S(-15, 5), // pst pawn h3
    S(-12, 22), // pst pawn a4
    S(-13, 30), // pst pawn b4
    S(1, 8), // pst pawn c4
    S(3, -2), // pst pawn d4
    S(9, -8), // pst pawn e4
    S(7, -2), // pst pawn f4
    S(-11, 10), // pst pawn g4
    S(-21, 14), // pst pawn h4
    S(2, 26), // pst pawn a5
    S(2, 33), // pst pawn b5
    S(8, 14), // pst pawn c5
    S(8, -1), // pst pawn d5
    S(13, -4), // pst pawn e5
    S(8, -9), // pst pawn f5
    S(-1, 8), // pst pawn g5
    S(-11, 18), // pst pawn h5
    S(23, 36), // pst pawn a6
    S(-8, 60), // pst pawn b6
    S(26, 28), // pst pawn c6
    S(16, 45), // pst pawn d6
    S(76, 13), // pst pawn e6
    S(54, 27), // pst pawn f6
    S(14, 46), // pst pawn g6
    S(35, 23), // pst pawn h6
    S(136, 110), // pst pawn a7
    S(112, 192), // pst pawn b7
    S(74, 172), // pst pawn c7
    S(179, 104), // pst pawn d7
    S(155, 129), // pst pawn e7
    S(0, 247), // pst pawn f7
    S(-48, 190), // pst pawn g7
    S(-16, 148), // pst pawn h7
    S(0, 0), // pst pawn a8
    S(0, 0), // pst pawn b8
    S(0, 0), // pst pawn c8
    S(0, 0), // pst pawn d8
    S(0, 0), // pst pawn e8
    S(0, 0), // pst pawn f8
    S(0, 0), // pst pawn g8
    S(0, 0), // pst pawn h8
    S(-105, -29), // pst knight a1
    S(-38, -37), // pst knight b1
    S(-58, -32), // pst knight c1
    S(-16, -36), // pst knight d1
    S(-22, -14), // pst knight e1
    S(-42, -10), // pst knight f1
    S(-38, -55), // pst knight g1
    S(-23, -64), // pst knight h1
    S(-51, -42), // pst knight a2
    S(-53, -40), // pst knight b2
    S(-35, -23), // pst knight c2
    S(-12, -16), // pst knight d2
    S(-13, 3), // pst knight e2
    S(17, -52), // pst knight f2
    S(-31, -14), // pst knight g2
    S(-35, -18), // pst knight h2
    S(-51, -22), // pst knight a3
    S(-24, -17), // pst knight b3
    S(-15, -3), // pst knight c3
    S(-7, 3), // pst knight d3
    S(5, 1), // pst knight e3
    S(-12, -6), // pst knight f3
    S(-12, -5), // pst knight g3
    S(-47, -18), // pst knight h3
    S(-25, -37), // pst knight a4
    S(-2, -10), // pst knight b4
    S(-9, 11), // pst knight c4
    S(-6, 5), // pst knight d4
    S(-2, 26), // pst knight e4
    S(-4, 20), // pst knight f4
    S(-12, 10), // pst knight g4
    S(-32, 3), // pst knight h4
    S(-15, -23), // pst knight a5
    S(-18, -3), // pst knight b5
    S(-12, 15), // pst knight c5
    S(20, 21), // pst knight d5
    S(-8, 27), // pst knight e5
    S(20, 3), // pst knight f5
    S(-10, 9), // pst knight g5
    S(2, -23), // pst knight h5
    S(-47, -14), // pst knight a6
    S(30, -34), // pst knight b6
    S(1, 12), // pst knight c6
    S(5, 12), // pst knight d6
    S(20, 4), // pst knight e6
    S(37, -27), // pst knight f6
    S(22, -40), // pst knight g6
    S(22, -66), // pst knight h6
    S(-73, 8), // pst knight a7
    S(-43, -30), // pst knight b7
    S(-30, -9), // pst knight c7
    S(10, -1), // pst knight d7
    S(-72, 23), // pst knight e7
    S(2, -55), // pst knight f7
    S(7, -39), // pst knight g7
    S(-17, -52), // pst knight h7
    S(-167, -58), // pst knight a8
    S(-89, -38), // pst knight b8
    S(-34, -13), // pst knight c8
    S(-49, -28), // pst knight d8
    S(61, -47), // pst knight e8
    S(-97, -27), // pst knight f8
    S(-15, -63), // pst knight g8
    S(-107, -99), // pst knight h8
    S(11, -34), // pst bishop a1
    S(29, -24), // pst bishop b1
    S(-11, -6), // pst bishop c1
    S(-9, -8), // pst bishop d1
    S(-9, -32), // pst bishop e1
    S(-10, -25), // pst bishop f1
    S(-39, 7), // pst bishop g1
    S(24, -13), // pst bishop h1
    S(15, -45), // pst bishop a2
    S(7, -19), // pst bishop b2
    S(4, -13), // pst bishop c2
    S(-1, -3), // pst bishop d2
    S(15, -24), // pst bishop e2
    S(5, -36), // pst bishop f2
    S(28, -40), // pst bishop g2
    S(2, -40), // pst bishop h2
    S(4, -27), // pst bishop a3
    S(20, -22), // pst bishop b3
    S(16, 3), // pst bishop c3
    S(9, -11), // pst bishop d3
    S(6, 9), // pst bishop e3
    S(25, -17), // pst bishop f3
    S(17, -39), // pst bishop g3
    S(5, -42), // pst bishop h3
    S(2, -34), // pst bishop a4
    S(10, -3), // pst bishop b4
    S(9, -3), // pst bishop c4
    S(30, 18), // pst bishop d4
    S(28, -4), // pst bishop e4
    S(5, 13), // pst bishop f4
    S(-4, -5), // pst bishop g4
    S(-4, -7), // pst bishop h4
    S(-4, -4), // pst bishop a5
    S(15, -4), // pst bishop b5
    S(15, 12), // pst bishop c5
    S(41, -1), // pst bishop d5
    S(22, 20), // pst bishop e5
    S(55, -31), // pst bishop f5
    S(10, 1), // pst bishop g5
    S(4, -22), // pst bishop h5
    S(-5, -47), // pst bishop a6
    S(8, 16), // pst bishop b6
    S(19, 12), // pst bishop c6
    S(4, 1), // pst bishop d6
    S(18, 2), // pst bishop e6
    S(77, -3), // pst bishop f6
    S(40, 10), // pst bishop g6
    S(4, -21), // pst bishop h6
    S(-72, 38), // pst bishop a7
    S(-20, -15), // pst bishop b7
    S(-9, 0), // pst bishop c7
    S(-35, -14), // pst bishop d7
    S(-5, 6), // pst bishop e7
    S(6, -1), // pst bishop f7
    S(-41, 27), // pst bishop g7
    S(-47, -56), // pst bishop h7
    S(-29, -14), // pst bishop a8
    S(4, -19), // pst bishop b8
    S(-82, -20), // pst bishop c8
    S(-37, 24), // pst bishop d8
    S(-25, 10), // pst bishop e8
    S(-42, 30), // pst bishop f8
    S(7, 16), // pst bishop g8
    S(-8, -24), // pst bishop h8
    S(-9, -10), // pst rook a1
    S(-1, -14), // pst rook b1
    S(-8, 3), // pst rook c1
    S(7, -13), // pst rook d1
    S(6, -17), // pst rook e1
    S(0, -12), // pst rook f1
    S(-41, 4), // pst rook g1
    S(-7, -45), // pst rook h1
    S(-36, -7), // pst rook a2
    S(-17, 1), // pst rook b2
    S(-23, -3), // pst rook c2
    S(17, -18), // pst rook d2
    S(-18, -16), // pst rook e2
    S(-3, -31), // pst rook f2
    S(-34, -24), // pst rook g2
    S(-69, 8), // pst rook h2
    S(-22, 8), // pst rook a3
    S(-28, 5), // pst rook b3
    S(-20, 16), // pst rook c3
    S(-5, -13), // pst rook d3
    S(5, -16), // pst rook e3
    S(-26, -11), // pst rook f3
    S(13, -12), // pst rook g3
    S(-28, 14), // pst rook h3
    S(-26, 12), // pst rook a4
    S(-21, 14), // pst rook b4
    S(-10, 16), // pst rook c4
    S(-14, 14), // pst rook d4
    S(-10, 9), // pst rook e4
    S(-20, 8), // pst rook f4
    S(-2, 17), // pst rook g4
    S(-13, -11), // pst rook h4
    S(-7, 2), // pst rook a5
    S(-4, 20), // pst rook b5
    S(8, 9), // pst rook c5
    S(20, 1), // pst rook d5
    S(6, 10), // pst rook e5
    S(0, 12), // pst rook f5
    S(-12, 5), // pst rook g5
    S(-32, 16), // pst rook h5
    S(-16, 32), // pst rook a6
    S(17, 18), // pst rook b6
    S(6, 21), // pst rook c6
    S(43, -3), // pst rook d6
    S(77, -16), // pst rook e6
    S(74, -22), // pst rook f6
    S(97, -19), // pst rook g6
    S(20, -2), // pst rook h6
    S(22, 15), // pst rook a7
    S(24, 20), // pst rook b7
    S(33, 28), // pst rook c7
    S(81, -3), // pst rook d7
    S(59, 1), // pst rook e7
    S(86, -3), // pst rook f7
    S(44, -4), // pst rook g7
    S(33, 3), // pst rook h7
    S(26, 8), // pst rook a8
    S(-3, 18), // pst rook b8
    S(-39, 41), // pst rook c8
    S(44, 12), // pst rook d8
    S(22, 15), // pst rook e8
    S(60, -10), // pst rook f8
    S(10, 1), // pst rook g8
    S(-14, 18), // pst rook h8
    S(-4, -28), // pst queen a1
    S(-20, -33), // pst queen b1
    S(9, -22), // pst queen c1
    S(1, -2), // pst queen d1
    S(-23, 10), // pst queen e1
    S(-23, -32), // pst queen f1
    S(-31, -20), // pst queen g1
    S(-50, -41), // pst queen h1
    S(-17, -22), // pst queen a2
    S(-7, -1), // pst queen b2
    S(3, -6), // pst queen c2
    S(5, -3), // pst queen d2
    S(6, -5), // pst queen e2
    S(21, -68), // pst queen f2
    S(53, -104), // pst queen g2
    S(1, -32), // pst queen h2
    S(-5, 3), // pst queen a3
    S(-3, 35), // pst queen b3
    S(-5, 49), // pst queen c3
    S(-8, 19), // pst queen d3
    S(-5, 34), // pst queen e3
    S(-6, 51), // pst queen f3
    S(-5, 39), // pst queen g3
    S(-5, -4), // pst queen h3
    S(-16, 41), // pst queen a4
    S(-19, 70), // pst queen b4
    S(-11, 65), // pst queen c4
    S(-30, 92), // pst queen d4
    S(-6, 49), // pst queen e4
    S(-21, 85), // pst queen f4
    S(-2, 53), // pst queen g4
    S(-37, 55), // pst queen h4
    S(0, -14), // pst queen a5
    S(-20, 52), // pst queen b5
    S(10, 27), // pst queen c5
    S(-21, 95), // pst queen d5
    S(-23, 97), // pst queen e5
    S(33, 1), // pst queen f5
    S(-13, 105), // pst queen g5
    S(3, 36), // pst queen h5
    S(-2, 20), // pst queen a6
    S(-23, 38), // pst queen b6
    S(-13, 85), // pst queen c6
    S(18, 48), // pst queen d6
    S(-6, 118), // pst queen e6
    S(36, 84), // pst queen f6
    S(57, 0), // pst queen g6
    S(-2, 51), // pst queen h6
    S(-13, 34), // pst queen a7
    S(-24, 65), // pst queen b7
    S(-25, 95), // pst queen c7
    S(-12, 96), // pst queen d7
    S(34, 40), // pst queen e7
    S(84, 12), // pst queen f7
    S(-13, 122), // pst queen g7
    S(1, 89), // pst queen h7
    S(-76, 99), // pst queen a8
    S(-93, 144), // pst queen b8
    S(-31, 102), // pst queen c8
    S(-13, 97), // pst queen d8
    S(-21, 128), // pst queen e8
    S(44, 67), // pst queen f8
    S(43, 104), // pst queen g8
    S(-45, 137), // pst queen h8
    S(-12, -5), // pst king a1
    S(46, 12), // pst king b1
    S(23, 30), // pst king c1
    S(-26, 40), // pst king d1
    S(10, 12), // pst king e1
    S(-21, 35), // pst king f1
    S(54, -1), // pst king g1
    S(35, -20), // pst king h1
    S(29, -8), // pst king a2
    S(-1, 33), // pst king b2
    S(-17, 56), // pst king c2
    S(-16, 61), // pst king d2
    S(-21, 56), // pst king e2
    S(-3, 52), // pst king f2
    S(39, 30), // pst king g2
    S(25, 10), // pst king h2
    S(-24, -9), // pst king a3
    S(25, 38), // pst king b3
    S(-19, 56), // pst king c3
    S(-1, 61), // pst king d3
    S(-15, 74), // pst king e3
    S(-17, 63), // pst king f3
    S(29, 46), // pst king g3
    S(-35, 29), // pst king h3
    S(-49, 16), // pst king a4
    S(23, 41), // pst king b4
    S(3, 62), // pst king c4
    S(-37, 82), // pst king d4
    S(-21, 73), // pst king e4
    S(-4, 78), // pst king f4
    S(-1, 50), // pst king g4
    S(-64, 27), // pst king h4
    S(-17, -1), // pst king a5
    S(26, 33), // pst king b5
    S(-123, 94), // pst king c5
    S(-198, 118), // pst king d5
    S(-200, 132), // pst king e5
    S(-119, 112), // pst king f5
    S(-105, 94), // pst king g5
    S(-101, 54), // pst king h5
    S(-9, 29), // pst king a6
    S(-32, 96), // pst king b6
    S(-171, 115), // pst king c6
    S(-184, 118), // pst king d6
    S(22, 69), // pst king e6
    S(-97, 109), // pst king f6
    S(-146, 128), // pst king g6
    S(-22, 23), // pst king h6
    S(29, -106), // pst king a7
    S(-1, 70), // pst king b7
    S(-20, 50), // pst king c7
    S(-7, 40), // pst king d7
    S(-8, 81), // pst king e7
    S(-296, 146), // pst king f7
    S(-38, 107), // pst king g7
    S(-29, -14), // pst king h7
    S(-65, -74), // pst king a8
    S(23, -35), // pst king b8
    S(16, 16), // pst king c8
    S(-15, -18), // pst king d8
    S(-56, 42), // pst king e8
    S(-34, 76), // pst king f8
    S(2, 68), // pst king g8
    S(13, -17), // pst king h8
    S(-12, -76), // mobility knight 0
    S(7, -18), // mobility knight 1
    S(14, 29), // mobility knight 2
    S(16, 46), // mobility knight 3
    S(21, 49), // mobility knight 4
    S(22, 57), // mobility knight 5
    S(24, 61), // mobility knight 6
    S(22, 55), // mobility knight 7
    S(19, 47), // mobility knight 8
    S(-26, -10), // mobility bishop 0
    S(-19, 8), // mobility bishop 1
    S(-9, 15), // mobility bishop 2
    S(-4, 29), // mobility bishop 3
    S(0, 48), // mobility bishop 4
    S(1, 57), // mobility bishop 5
    S(6, 51), // mobility bishop 6
    S(5, 59), // mobility bishop 7
    S(4, 60), // mobility bishop 8
    S(-4, 63), // mobility bishop 9
    S(12, 51), // mobility bishop 10
    S(-30, 68), // mobility bishop 11
    S(-25, 38), // mobility bishop 12
    S(-58, 95), // mobility bishop 13
    S(-30, -9), // mobility rook 0
    S(-13, 19), // mobility rook 1
    S(-7, 18), // mobility rook 2
    S(0, 27), // mobility rook 3
    S(-1, 38), // mobility rook 4
    S(2, 41), // mobility rook 5
    S(5, 49), // mobility rook 6
    S(6, 51), // mobility rook 7
    S(10, 56), // mobility rook 8
    S(5, 65), // mobility rook 9
    S(16, 61), // mobility rook 10
    S(31, 61), // mobility rook 11
    S(20, 71), // mobility rook 12
    S(49, 45), // mobility rook 13
    S(16, 62), // mobility rook 14
    S(3, -98), // mobility queen 0
    S(2, 50), // mobility queen 1
    S(-6, 72), // mobility queen 2
    S(-3, 61), // mobility queen 3
    S(-1, 59), // mobility queen 4
    S(4, 43), // mobility queen 5
    S(7, 63), // mobility queen 6
    S(7, 68), // mobility queen 7
    S(10, 59), // mobility queen 8
    S(14, 67), // mobility queen 9
    S(19, 61), // mobility queen 10
    S(16, 83), // mobility queen 11
    S(18, 71), // mobility queen 12
    S(18, 69), // mobility queen 13
    S(17, 95), // mobility queen 14
    S(19, 92), // mobility queen 15
    S(21, 73), // mobility queen 16
    S(38, 55), // mobility queen 17
    S(19, 86), // mobility queen 18
    S(19, 69), // mobility queen 19
    S(30, 64), // mobility queen 20
    S(68, 24), // mobility queen 21
    S(105, 23), // mobility queen 22
    S(137, -25), // mobility queen 23
    S(11, 73), // mobility queen 24
    S(-9, 102), // mobility queen 25
    S(44, 86), // mobility queen 26
    S(292, -172), // mobility queen 27
    S(6, -30), // king attack units knight
    S(5, -6), // king attack units bishop
    S(28, 0), // king attack units rook
    S(-8, 206), // king attack units queen
    S(0, 0), // king attack weight 0
    S(0, 0), // king attack weight 1
    S(0, 16), // king attack weight 2
    S(42, 54), // king attack weight 3
    S(80, 101), // king attack weight 4
    S(80, 198), // king attack weight 5
    S(179, 200), // king attack weight 6
    S(200, 200), // king attack weight 7
    S(0, 0), // threat by pawn pawn
    S(56, 27), // threat by pawn knight
    S(47, 60), // threat by pawn bishop
    S(52, 16), // threat by pawn rook
    S(60, -30), // threat by pawn queen
    S(0, 0), // threat by pawn king
    S(0, 0), // threat by minor pawn
    S(0, 0), // threat by minor knight
    S(0, 0), // threat by minor bishop
    S(59, 2), // threat by minor rook
    S(30, 66), // threat by minor queen
    S(0, 0), // threat by minor king
    S(13, 34), // hanging pawn
    S(18, 31), // hanging knight
    S(20, 28), // hanging bishop
    S(20, 6), // hanging rook
    S(10, -11), // hanging queen
    S(0, 0), // hanging king
    S(0, 0), // passed 0
    S(57, 16), // passed 1
    S(6, 20), // passed 2
    S(-75, 74), // passed 3
    S(28, 74), // passed 4
    S(217, 50), // passed 5
    S(186, -189), // passed 6
    S(0, 0), // passed 7
    S(0, 0), // passed free 0
    S(-5, 16), // passed free 1
    S(-3, 5), // passed free 2
    S(-15, 19), // passed free 3
    S(-4, 32), // passed free 4
    S(-28, 52), // passed free 5
    S(76, 164), // passed free 6
    S(0, 0), // passed free 7
    S(-4, -15), // isolated
    S(-10, -17), // doubled
    S(28, 67), // bishop pair
    S(35, -3), // rook open file
    S(17, 4), // rook semi-open file
    S(25, 12), // tempo
    S(14, -12), // pawn shield 0
    S(7, -10), // pawn shield 1
    S(0, 0), // passed own king distance 0
    S(6, -2), // passed own king distance 1
    S(1, -4), // passed own king distance 2
    S(16, -18), // passed own king distance 3
    S(0, -24), // passed own king distance 4
    S(-31, -21), // passed own king distance 5
    S(-14, -19), // passed own king distance 6
    S(0, 0), // passed own king distance 7
    S(0, 0), // passed enemy king distance 0
    S(-16, 0), // passed enemy king distance 1
    S(-5, 4), // passed enemy king distance 2
    S(-1, 13), // passed enemy king distance 3
    S(-5, 28), // passed enemy king distance 4
    S(1, 42), // passed enemy king distance 5
    S(-17, 58), // passed enemy king distance 6
    S(0, 0), // passed enemy king distance 7
    S(0, 0), // supported pawn 0
    S(0, 0), // supported pawn 1
    S(16, 10), // supported pawn 2
    S(14, 5), // supported pawn 3
    S(23, 10), // supported pawn 4
    S(57, 56), // supported pawn 5
    S(286, -6), // supported pawn 6
    S(0, 0), // supported pawn 7
    S(0, 0), // phalanx pawn 0
    S(3, -2), // phalanx pawn 1
    S(3, 3), // phalanx pawn 2
    S(12, 11), // phalanx pawn 3
    S(20, 32), // phalanx pawn 4
    S(29, 96), // phalanx pawn 5
    S(-191, 153), // phalanx pawn 6
    S(0, 0), // phalanx pawn 7
    S(57, -8), // safe check knight
    S(5, 24), // safe check bishop
    S(31, 6), // safe check rook
    S(19, 31), // safe check queen
    S(30, 6), // outpost knight
    S(35, -6), // outpost bishop
    S(-5, -17), // backward pawn
    S(-20, 6), // rook on seventh
    S(5, 21), // minor behind pawn
    S(-21, -16), // king open file open
    S(-12, 9), // king open file semi-open
    S(36, 16), // pawn storm 1
    S(-24, 15), // pawn storm 2
    S(-6, -1), // pawn storm 3
    S(15, 15), // pawn push threat
    S(1, -12), // bishop pawns
    S(4, 25), // rook behind passer own
    S(-49, -23), // rook behind passer enemy
    S(0, 0), // passed blocked 0
    S(9, -10), // passed blocked 1
    S(21, -21), // passed blocked 2
    S(1, -20), // passed blocked 3
    S(-7, -1), // passed blocked 4
    S(-3, -20), // passed blocked 5
    S(-14, 63), // passed blocked 6
    S(0, 0), // passed blocked 7
    S(0, 0), // pawn storm blocked 1
    S(36, -27), // pawn storm blocked 2
    S(12, -1), // pawn storm blocked 3
    S(-8, -2), // king zone weak
    S(-3, 11), // pinned pawn
    S(-31, -73), // pinned knight
    S(-8, -75), // pinned bishop
    S(-100, 40), // pinned rook
    S(-45, -22), // pinned queen
    S(1, -2), // space safe
    S(2, 2), // space behind pawn
    S(68, 3), // rook on queen
];
