package bench

import "github.com/kalah-solver/kalah/engine"

// midgame is the quick suite: positions of Kalah(6,4), (6,5) and (6,6)
// under both rules, reached from the start by fixed move sequences (random
// playouts until 13-31 seeds were left on the board). Most were chosen
// because one thread with a 64 MiB table solves them, every move's value
// included, in a fraction of a second; the five with at most 16 seeds
// (the last of their groups, and 6x5-e-05) are small enough for the brute-force
// reference of the tests to check quickly. Keep the list fixed: the
// signature is its total node count.
var midgame = []Case{
	mid("6x4-n-01", 4, engine.NoEmptyCapture, "c b C B a C f B b A d A f e F e D b C e B A c C f A e B f d F e E E e D c E a e b A c B d D e E f F"),
	mid("6x4-n-02", 4, engine.NoEmptyCapture, "c d C F d D f E e C d E D F d E"),
	mid("6x4-n-03", 4, engine.NoEmptyCapture, "a F a B d D b C c B a E d b A c C e F e C a A c E b F B"),
	mid("6x4-n-04", 4, engine.NoEmptyCapture, "e A c e B f C c F e B a A e E d C b C e D b F e E"),
	mid("6x4-n-05", 4, engine.NoEmptyCapture, "c f C d D a b E f B b F a C c A e B a C E a F f A"),
	mid("6x4-n-06", 4, engine.NoEmptyCapture, "d B b D b C a b A e E b A e B a D d f F e a B b A d c A f D a A d B F"),
	mid("6x4-n-07", 4, engine.NoEmptyCapture, "d D b F b C A f E e E d c B a A c C b B d C e B c A f A a F a B b C c F E"),
	mid("6x4-e-01", 4, engine.EmptyCapture, "c b A e F d D a f C d D b d F f e E e C"),
	mid("6x4-e-02", 4, engine.EmptyCapture, "c a E f C d D a E A C b E c f F b D f"),
	mid("6x4-e-03", 4, engine.EmptyCapture, "a A f D a B d F f a C c D C d B b A a B f D C E"),
	mid("6x4-e-04", 4, engine.EmptyCapture, "a F a E e A c E a F b A f D c A e A d E a"),
	mid("6x4-e-05", 4, engine.EmptyCapture, "b A f E c F b D b C f e C f c f b A a C"),
	mid("6x4-e-06", 4, engine.EmptyCapture, "a F b D c A C d C f E b C f e A a E d c B e A f D c E F c C a A f E d B c A"),
	mid("6x4-e-07", 4, engine.EmptyCapture, "c e D a C b d B f A e D f c E A a C D e E F"),
	mid("6x5-n-01", 5, engine.NoEmptyCapture, "d B c D a A a B d C a F b A c F A a B b C e d F E b D e a C f"),
	mid("6x5-n-02", 5, engine.NoEmptyCapture, "a E e C c D d B e b E a B e f B b E e d F d B e C a D d F f B c F A"),
	mid("6x5-n-03", 5, engine.NoEmptyCapture, "d C e E f D b C c F f D d E f e B c C D a B e f F c A e B d C a A b"),
	mid("6x5-n-04", 5, engine.NoEmptyCapture, "b d F e C d E e A d E c F e D d E A f F a D d A b E e A d"),
	mid("6x5-n-05", 5, engine.NoEmptyCapture, "c A C e D c F c A e a C c E a F A e f D b B c F"),
	mid("6x5-n-06", 5, engine.NoEmptyCapture, "a D c F b C d E b C d A b F b D c E A d B f E D c E e B b C c D A e A b F e E c F A a"),
	mid("6x5-n-07", 5, engine.NoEmptyCapture, "b d B e A a C c C f C a F d A e C b f B d C a A b F B e f c f d E a D f e C f"),
	mid("6x5-n-08", 5, engine.NoEmptyCapture, "a A d E a A b C f D d A b F e C c A a D e c B f A b B e f C d F f d A b B c e C a E c F A"),
	mid("6x5-e-01", 5, engine.EmptyCapture, "a D f A B c C a F f D b B c a A b E f F e F D f b E c d D f E B"),
	mid("6x5-e-02", 5, engine.EmptyCapture, "c C e A d A e B c D f E a A e F c A f D c C a D e E d F e B b F c C"),
	mid("6x5-e-03", 5, engine.EmptyCapture, "e F a c A e a E d D a F c d E B a A c D f D b E c b D f A a C"),
	mid("6x5-e-04", 5, engine.EmptyCapture, "d E f B a A f a F e E f b A c A f F e d B b"),
	mid("6x5-e-05", 5, engine.EmptyCapture, "a B E f E a A D d D b F c C f E d A b C a D f F d a A b E f B c F e C D d F f B b"),
	mid("6x5-e-06", 5, engine.EmptyCapture, "b d A C f D b A d E e B a A e f D C a E c B e F f A e F B b B d C f D d"),
	mid("6x6-n-01", 6, engine.NoEmptyCapture, "d A e D a A c B b C b F c D a B d E d F a A a B e E A f B d E D c E f B a A d e"),
	mid("6x6-n-02", 6, engine.NoEmptyCapture, "d E a D b A c A e F d A e f a c F E d f D b A e C B e d B f A c C b F b E f b D b B a A e C d"),
	mid("6x6-n-03", 6, engine.NoEmptyCapture, "a f D e C b C a A a B e c A a E c A d C f A b E a B b F d E C E a D e D d B b A f E"),
	mid("6x6-n-04", 6, engine.NoEmptyCapture, "a b A a B e F d F C a A e D a F e E b A f A e c E d D f"),
	mid("6x6-n-05", 6, engine.NoEmptyCapture, "a e A f C c F e E f F A B c A d A c E f F b F D b C e D B d c A f B b E d F c C d D e A a A b F f B"),
	mid("6x6-n-06", 6, engine.NoEmptyCapture, "f C c C e C f B c E f a B b C F a D d E c A b c A e C F f A b F E c D"),
	mid("6x6-n-07", 6, engine.NoEmptyCapture, "e C a F a D f E b D c A e B d F b D e E f E c B A d F f D A d C c A e F a B d e b D d E d A f B a E F d C a E e B c D a A"),
	mid("6x6-e-01", 6, engine.EmptyCapture, "f C c B c D c F c E f F A d C c B b F b A a E e F a D d A"),
	mid("6x6-e-02", 6, engine.EmptyCapture, "f D c F e D d A a A b F b D B e A a E D A f C d F b B d D b F c B f A b E e A a A d c F f B e F D A a F"),
	mid("6x6-e-03", 6, engine.EmptyCapture, "d E a D e C c E a D C d F d E C e F D f F D c E e a B b A a D c e A f F"),
	mid("6x6-e-04", 6, engine.EmptyCapture, "a f A b B d D d C f A d D c C e F d f B e F a A F E b F f D c E f F e B b C b E D F a C d"),
	mid("6x6-e-05", 6, engine.EmptyCapture, "d A b C a B f D f d F b E e F e A b F D"),
	mid("6x6-e-06", 6, engine.EmptyCapture, "a c D a B e F a A c f F b C b F d E c C f C b F e E d C a C f D f e C d B a F f C a B c C e A f C b F E a B E f D a E b C d E c B d C e F f C d D e a A b F"),
}

// mid is a mid-game case of Kalah(6,seeds).
func mid(name string, seeds int, c engine.Rule, moves string) Case {
	return Case{Name: name, Variant: engine.Variant{Pits: 6, Rule: c}, Seeds: seeds, Moves: moves}
}
