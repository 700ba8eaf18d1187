package bench

import "github.com/kalah-solver/kalah/engine"

// midgame is the quick suite: positions of Kalah(6,4), (6,5) and (6,6)
// under both rules, reached from the start by fixed move sequences (random
// playouts until 13-31 seeds were left on the board). Most were chosen
// because one thread with a 64 MiB table solves them, every move's value
// included, in 0.01-0.3 s; the five with at most 16 seeds (the last of
// their groups, and 6x5-e-05) are small enough for the brute-force
// reference of the tests to check quickly. Keep the list fixed: the
// signature is its total node count.
var midgame = []Case{
	{"6x4-n-01", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 4, "c b C B a C f B b A d A f e F e D b C e B A c C f A e B f d F e E E e D c E a e b A c B d D e E f F"},
	{"6x4-n-02", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 4, "c d C F d D f E e C d E D F d E"},
	{"6x4-n-03", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 4, "a F a B d D b C c B a E d b A c C e F e C a A c E b F B"},
	{"6x4-n-04", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 4, "e A c e B f C c F e B a A e E d C b C e D b F e E"},
	{"6x4-n-05", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 4, "c f C d D a b E f B b F a C c A e B a C E a F f A"},
	{"6x4-n-06", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 4, "d B b D b C a b A e E b A e B a D d f F e a B b A d c A f D a A d B F"},
	{"6x4-n-07", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 4, "d D b F b C A f E e E d c B a A c C b B d C e B c A f A a F a B b C c F E"},
	{"6x4-e-01", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 4, "c b A e F d D a f C d D b d F f e E e C"},
	{"6x4-e-02", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 4, "c a E f C d D a E A C b E c f F b D f"},
	{"6x4-e-03", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 4, "a A f D a B d F f a C c D C d B b A a B f D C E"},
	{"6x4-e-04", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 4, "a F a E e A c E a F b A f D c A e A d E a"},
	{"6x4-e-05", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 4, "b A f E c F b D b C f e C f c f b A a C"},
	{"6x4-e-06", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 4, "a F b D c A C d C f E b C f e A a E d c B e A f D c E F c C a A f E d B c A"},
	{"6x4-e-07", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 4, "c e D a C b d B f A e D f c E A a C D e E F"},
	{"6x5-n-01", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 5, "d B c D a A a B d C a F b A c F A a B b C e d F E b D e a C f"},
	{"6x5-n-02", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 5, "a E e C c D d B e b E a B e f B b E e d F d B e C a D d F f B c F A"},
	{"6x5-n-03", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 5, "d C e E f D b C c F f D d E f e B c C D a B e f F c A e B d C a A b"},
	{"6x5-n-04", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 5, "b d F e C d E e A d E c F e D d E A f F a D d A b E e A d"},
	{"6x5-n-05", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 5, "c A C e D c F c A e a C c E a F A e f D b B c F"},
	{"6x5-n-06", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 5, "a D c F b C d E b C d A b F b D c E A d B f E D c E e B b C c D A e A b F e E c F A a"},
	{"6x5-n-07", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 5, "b d B e A a C c C f C a F d A e C b f B d C a A b F B e f c f d E a D f e C f"},
	{"6x5-n-08", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 5, "a A d E a A b C f D d A b F e C c A a D e c B f A b B e f C d F f d A b B c e C a E c F A"},
	{"6x5-e-01", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 5, "a D f A B c C a F f D b B c a A b E f F e F D f b E c d D f E B"},
	{"6x5-e-02", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 5, "c C e A d A e B c D f E a A e F c A f D c C a D e E d F e B b F c C"},
	{"6x5-e-03", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 5, "e F a c A e a E d D a F c d E B a A c D f D b E c b D f A a C"},
	{"6x5-e-04", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 5, "d E f B a A f a F e E f b A c A f F e d B b"},
	{"6x5-e-05", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 5, "a B E f E a A D d D b F c C f E d A b C a D f F d a A b E f B c F e C D d F f B b"},
	{"6x5-e-06", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 5, "b d A C f D b A d E e B a A e f D C a E c B e F f A e F B b B d C f D d"},
	{"6x6-n-01", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 6, "d A e D a A c B b C b F c D a B d E d F a A a B e E A f B d E D c E f B a A d e"},
	{"6x6-n-02", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 6, "d E a D b A c A e F d A e f a c F E d f D b A e C B e d B f A c C b F b E f b D b B a A e C d"},
	{"6x6-n-03", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 6, "a f D e C b C a A a B e c A a E c A d C f A b E a B b F d E C E a D e D d B b A f E"},
	{"6x6-n-04", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 6, "a b A a B e F d F C a A e D a F e E b A f A e c E d D f"},
	{"6x6-n-05", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 6, "a e A f C c F e E f F A B c A d A c E f F b F D b C e D B d c A f B b E d F c C d D e A a A b F f B"},
	{"6x6-n-06", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 6, "f C c C e C f B c E f a B b C F a D d E c A b c A e C F f A b F E c D"},
	{"6x6-n-07", engine.Rules{Pits: 6, Capture: engine.NoEmptyCapture}, 6, "e C a F a D f E b D c A e B d F b D e E f E c B A d F f D A d C c A e F a B d e b D d E d A f B a E F d C a E e B c D a A"},
	{"6x6-e-01", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 6, "f C c B c D c F c E f F A d C c B b F b A a E e F a D d A"},
	{"6x6-e-02", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 6, "f D c F e D d A a A b F b D B e A a E D A f C d F b B d D b F c B f A b E e A a A d c F f B e F D A a F"},
	{"6x6-e-03", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 6, "d E a D e C c E a D C d F d E C e F D f F D c E e a B b A a D c e A f F"},
	{"6x6-e-04", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 6, "a f A b B d D d C f A d D c C e F d f B e F a A F E b F f D c E f F e B b C b E D F a C d"},
	{"6x6-e-05", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 6, "d A b C a B f D f d F b E e F e A b F D"},
	{"6x6-e-06", engine.Rules{Pits: 6, Capture: engine.EmptyCapture}, 6, "a c D a B e F a A c f F b C b F d E c C f C b F e E d C a C f D f e C d B a F f C a B c C e A f C b F E a B E f D a E b C d E c B d C e F f C d D e a A b F"},
}
