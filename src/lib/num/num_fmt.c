/*
 * num_fmt.c - binary64/binary32 and integers to decimal text.
 *
 * Part of libtensorsuite.  The shortest round-trip digits come from
 * Raffaello Giulietti's Schubfach algorithm ("The Schubfach way to render
 * doubles", 2020): the rounding interval of the value is scaled by a
 * power of ten chosen so that at most one decimal of the next shorter
 * length can lie in it, and the few candidates are compared with the
 * interval's ends using products that are exact after rounding to odd.
 * ts_fmt_double_e16() uses the same table to get 17 correctly rounded
 * digits directly.  It falls back on snprintf() only when 128 bits of
 * 10^j cannot decide the rounding and the value is not an exact tie: the
 * exact value would have to lie within 2^-68 of a tie without being one,
 * which no double has been seen to do (the output is rewritten with a
 * '.' whatever the locale).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tsnum.h"

#include "num/num_bits.h"
#include "num/digits.h"

/* floor(a / 2^s), portably (right shifts of negative numbers are not). */
static inline int
floor_shift(int64_t a, int s)
{
	int64_t d = (int64_t)1 << s;

	return (int)(a >= 0 ? a / d : -((-a + d - 1) / d));
}

/* floor(log2(10^j)), |j| <= 400 */
static inline int
flog2_pow10(int j)
{
	return floor_shift((int64_t)j * 217706, 16);
}

/* floor(log10(2^q)), |q| <= 1100 */
static inline int
flog10_pow2(int q)
{
	return floor_shift((int64_t)q * 1262611, 22);
}

/* floor(log10(3/4 * 2^q)), |q| <= 1100 */
static inline int
flog10_3q_pow2(int q)
{
	return floor_shift((int64_t)q * 1262611 - 524031, 22);
}

/*
 * pow10_tab[j + 292] = floor(10^j * 2^s) + 1 for -292 <= j <= 341, s
 * chosen so that the floor lies in [2^127, 2^128): {high, low}.  Always
 * an overestimate, by at most one unit.  pow10f_tab[j + 31] is the same
 * with 64 bits for -31 <= j <= 46.  Generated once by this Python 3
 * program, which also checked the three logarithm formulas above over
 * their ranges:
 *
 *	def entry(j, bits):
 *	    if j >= 0:
 *	        p = 10 ** j
 *	        b = p.bit_length()
 *	        f = p << (bits - b) if b <= bits else p >> (b - bits)
 *	    else:
 *	        p = 10 ** -j
 *	        f = (1 << (bits - 1 + p.bit_length())) // p
 *	    return f + 1
 *	for j in range(-292, 342):
 *	    v = entry(j, 128)
 *	    print("\t{0x%016xu, 0x%016xu}, /" "* %d *" "/" %
 *	        (v >> 64, v & (2 ** 64 - 1), j))
 *	for j in range(-31, 47):
 *	    print("\t0x%016xu, /" "* %d *" "/" % (entry(j, 64), j))
 */
#define POW10_JMIN	(-292)
#define POW10_JMAX	341
#define POW10F_JMIN	(-31)
#define POW10F_JMAX	46
static const uint64_t pow10_tab[634][2] = {
	{0xff77b1fcbebcdc4fu, 0x25e8e89c13bb0f7bu}, /* -292 */
	{0x9faacf3df73609b1u, 0x77b191618c54e9adu}, /* -291 */
	{0xc795830d75038c1du, 0xd59df5b9ef6a2418u}, /* -290 */
	{0xf97ae3d0d2446f25u, 0x4b0573286b44ad1eu}, /* -289 */
	{0x9becce62836ac577u, 0x4ee367f9430aec33u}, /* -288 */
	{0xc2e801fb244576d5u, 0x229c41f793cda740u}, /* -287 */
	{0xf3a20279ed56d48au, 0x6b43527578c11110u}, /* -286 */
	{0x9845418c345644d6u, 0x830a13896b78aaaau}, /* -285 */
	{0xbe5691ef416bd60cu, 0x23cc986bc656d554u}, /* -284 */
	{0xedec366b11c6cb8fu, 0x2cbfbe86b7ec8aa9u}, /* -283 */
	{0x94b3a202eb1c3f39u, 0x7bf7d71432f3d6aau}, /* -282 */
	{0xb9e08a83a5e34f07u, 0xdaf5ccd93fb0cc54u}, /* -281 */
	{0xe858ad248f5c22c9u, 0xd1b3400f8f9cff69u}, /* -280 */
	{0x91376c36d99995beu, 0x23100809b9c21fa2u}, /* -279 */
	{0xb58547448ffffb2du, 0xabd40a0c2832a78bu}, /* -278 */
	{0xe2e69915b3fff9f9u, 0x16c90c8f323f516du}, /* -277 */
	{0x8dd01fad907ffc3bu, 0xae3da7d97f6792e4u}, /* -276 */
	{0xb1442798f49ffb4au, 0x99cd11cfdf41779du}, /* -275 */
	{0xdd95317f31c7fa1du, 0x40405643d711d584u}, /* -274 */
	{0x8a7d3eef7f1cfc52u, 0x482835ea666b2573u}, /* -273 */
	{0xad1c8eab5ee43b66u, 0xda3243650005eed0u}, /* -272 */
	{0xd863b256369d4a40u, 0x90bed43e40076a83u}, /* -271 */
	{0x873e4f75e2224e68u, 0x5a7744a6e804a292u}, /* -270 */
	{0xa90de3535aaae202u, 0x711515d0a205cb37u}, /* -269 */
	{0xd3515c2831559a83u, 0x0d5a5b44ca873e04u}, /* -268 */
	{0x8412d9991ed58091u, 0xe858790afe9486c3u}, /* -267 */
	{0xa5178fff668ae0b6u, 0x626e974dbe39a873u}, /* -266 */
	{0xce5d73ff402d98e3u, 0xfb0a3d212dc81290u}, /* -265 */
	{0x80fa687f881c7f8eu, 0x7ce66634bc9d0b9au}, /* -264 */
	{0xa139029f6a239f72u, 0x1c1fffc1ebc44e81u}, /* -263 */
	{0xc987434744ac874eu, 0xa327ffb266b56221u}, /* -262 */
	{0xfbe9141915d7a922u, 0x4bf1ff9f0062baa9u}, /* -261 */
	{0x9d71ac8fada6c9b5u, 0x6f773fc3603db4aau}, /* -260 */
	{0xc4ce17b399107c22u, 0xcb550fb4384d21d4u}, /* -259 */
	{0xf6019da07f549b2bu, 0x7e2a53a146606a49u}, /* -258 */
	{0x99c102844f94e0fbu, 0x2eda7444cbfc426eu}, /* -257 */
	{0xc0314325637a1939u, 0xfa911155fefb5309u}, /* -256 */
	{0xf03d93eebc589f88u, 0x793555ab7eba27cbu}, /* -255 */
	{0x96267c7535b763b5u, 0x4bc1558b2f3458dfu}, /* -254 */
	{0xbbb01b9283253ca2u, 0x9eb1aaedfb016f17u}, /* -253 */
	{0xea9c227723ee8bcbu, 0x465e15a979c1caddu}, /* -252 */
	{0x92a1958a7675175fu, 0x0bfacd89ec191ecau}, /* -251 */
	{0xb749faed14125d36u, 0xcef980ec671f667cu}, /* -250 */
	{0xe51c79a85916f484u, 0x82b7e12780e7401bu}, /* -249 */
	{0x8f31cc0937ae58d2u, 0xd1b2ecb8b0908811u}, /* -248 */
	{0xb2fe3f0b8599ef07u, 0x861fa7e6dcb4aa16u}, /* -247 */
	{0xdfbdcece67006ac9u, 0x67a791e093e1d49bu}, /* -246 */
	{0x8bd6a141006042bdu, 0xe0c8bb2c5c6d24e1u}, /* -245 */
	{0xaecc49914078536du, 0x58fae9f773886e19u}, /* -244 */
	{0xda7f5bf590966848u, 0xaf39a475506a899fu}, /* -243 */
	{0x888f99797a5e012du, 0x6d8406c952429604u}, /* -242 */
	{0xaab37fd7d8f58178u, 0xc8e5087ba6d33b84u}, /* -241 */
	{0xd5605fcdcf32e1d6u, 0xfb1e4a9a90880a65u}, /* -240 */
	{0x855c3be0a17fcd26u, 0x5cf2eea09a550680u}, /* -239 */
	{0xa6b34ad8c9dfc06fu, 0xf42faa48c0ea481fu}, /* -238 */
	{0xd0601d8efc57b08bu, 0xf13b94daf124da27u}, /* -237 */
	{0x823c12795db6ce57u, 0x76c53d08d6b70859u}, /* -236 */
	{0xa2cb1717b52481edu, 0x54768c4b0c64ca6fu}, /* -235 */
	{0xcb7ddcdda26da268u, 0xa9942f5dcf7dfd0au}, /* -234 */
	{0xfe5d54150b090b02u, 0xd3f93b35435d7c4du}, /* -233 */
	{0x9efa548d26e5a6e1u, 0xc47bc5014a1a6db0u}, /* -232 */
	{0xc6b8e9b0709f109au, 0x359ab6419ca1091cu}, /* -231 */
	{0xf867241c8cc6d4c0u, 0xc30163d203c94b63u}, /* -230 */
	{0x9b407691d7fc44f8u, 0x79e0de63425dcf1eu}, /* -229 */
	{0xc21094364dfb5636u, 0x985915fc12f542e5u}, /* -228 */
	{0xf294b943e17a2bc4u, 0x3e6f5b7b17b2939eu}, /* -227 */
	{0x979cf3ca6cec5b5au, 0xa705992ceecf9c43u}, /* -226 */
	{0xbd8430bd08277231u, 0x50c6ff782a838354u}, /* -225 */
	{0xece53cec4a314ebdu, 0xa4f8bf5635246429u}, /* -224 */
	{0x940f4613ae5ed136u, 0x871b7795e136be9au}, /* -223 */
	{0xb913179899f68584u, 0x28e2557b59846e40u}, /* -222 */
	{0xe757dd7ec07426e5u, 0x331aeada2fe589d0u}, /* -221 */
	{0x9096ea6f3848984fu, 0x3ff0d2c85def7622u}, /* -220 */
	{0xb4bca50b065abe63u, 0x0fed077a756b53aau}, /* -219 */
	{0xe1ebce4dc7f16dfbu, 0xd3e8495912c62895u}, /* -218 */
	{0x8d3360f09cf6e4bdu, 0x64712dd7abbbd95du}, /* -217 */
	{0xb080392cc4349decu, 0xbd8d794d96aacfb4u}, /* -216 */
	{0xdca04777f541c567u, 0xecf0d7a0fc5583a1u}, /* -215 */
	{0x89e42caaf9491b60u, 0xf41686c49db57245u}, /* -214 */
	{0xac5d37d5b79b6239u, 0x311c2875c522ced6u}, /* -213 */
	{0xd77485cb25823ac7u, 0x7d633293366b828cu}, /* -212 */
	{0x86a8d39ef77164bcu, 0xae5dff9c02033198u}, /* -211 */
	{0xa8530886b54dbdebu, 0xd9f57f830283fdfdu}, /* -210 */
	{0xd267caa862a12d66u, 0xd072df63c324fd7cu}, /* -209 */
	{0x8380dea93da4bc60u, 0x4247cb9e59f71e6eu}, /* -208 */
	{0xa46116538d0deb78u, 0x52d9be85f074e609u}, /* -207 */
	{0xcd795be870516656u, 0x67902e276c921f8cu}, /* -206 */
	{0x806bd9714632dff6u, 0x00ba1cd8a3db53b7u}, /* -205 */
	{0xa086cfcd97bf97f3u, 0x80e8a40eccd228a5u}, /* -204 */
	{0xc8a883c0fdaf7df0u, 0x6122cd128006b2ceu}, /* -203 */
	{0xfad2a4b13d1b5d6cu, 0x796b805720085f82u}, /* -202 */
	{0x9cc3a6eec6311a63u, 0xcbe3303674053bb1u}, /* -201 */
	{0xc3f490aa77bd60fcu, 0xbedbfc4411068a9du}, /* -200 */
	{0xf4f1b4d515acb93bu, 0xee92fb5515482d45u}, /* -199 */
	{0x991711052d8bf3c5u, 0x751bdd152d4d1c4bu}, /* -198 */
	{0xbf5cd54678eef0b6u, 0xd262d45a78a0635eu}, /* -197 */
	{0xef340a98172aace4u, 0x86fb897116c87c35u}, /* -196 */
	{0x9580869f0e7aac0eu, 0xd45d35e6ae3d4da1u}, /* -195 */
	{0xbae0a846d2195712u, 0x8974836059cca10au}, /* -194 */
	{0xe998d258869facd7u, 0x2bd1a438703fc94cu}, /* -193 */
	{0x91ff83775423cc06u, 0x7b6306a34627ddd0u}, /* -192 */
	{0xb67f6455292cbf08u, 0x1a3bc84c17b1d543u}, /* -191 */
	{0xe41f3d6a7377eecau, 0x20caba5f1d9e4a94u}, /* -190 */
	{0x8e938662882af53eu, 0x547eb47b7282ee9du}, /* -189 */
	{0xb23867fb2a35b28du, 0xe99e619a4f23aa44u}, /* -188 */
	{0xdec681f9f4c31f31u, 0x6405fa00e2ec94d5u}, /* -187 */
	{0x8b3c113c38f9f37eu, 0xde83bc408dd3dd05u}, /* -186 */
	{0xae0b158b4738705eu, 0x9624ab50b148d446u}, /* -185 */
	{0xd98ddaee19068c76u, 0x3badd624dd9b0958u}, /* -184 */
	{0x87f8a8d4cfa417c9u, 0xe54ca5d70a80e5d7u}, /* -183 */
	{0xa9f6d30a038d1dbcu, 0x5e9fcf4ccd211f4du}, /* -182 */
	{0xd47487cc8470652bu, 0x7647c32000696720u}, /* -181 */
	{0x84c8d4dfd2c63f3bu, 0x29ecd9f40041e074u}, /* -180 */
	{0xa5fb0a17c777cf09u, 0xf468107100525891u}, /* -179 */
	{0xcf79cc9db955c2ccu, 0x7182148d4066eeb5u}, /* -178 */
	{0x81ac1fe293d599bfu, 0xc6f14cd848405531u}, /* -177 */
	{0xa21727db38cb002fu, 0xb8ada00e5a506a7du}, /* -176 */
	{0xca9cf1d206fdc03bu, 0xa6d90811f0e4851du}, /* -175 */
	{0xfd442e4688bd304au, 0x908f4a166d1da664u}, /* -174 */
	{0x9e4a9cec15763e2eu, 0x9a598e4e043287ffu}, /* -173 */
	{0xc5dd44271ad3cdbau, 0x40eff1e1853f29feu}, /* -172 */
	{0xf7549530e188c128u, 0xd12bee59e68ef47du}, /* -171 */
	{0x9a94dd3e8cf578b9u, 0x82bb74f8301958cfu}, /* -170 */
	{0xc13a148e3032d6e7u, 0xe36a52363c1faf02u}, /* -169 */
	{0xf18899b1bc3f8ca1u, 0xdc44e6c3cb279ac2u}, /* -168 */
	{0x96f5600f15a7b7e5u, 0x29ab103a5ef8c0bau}, /* -167 */
	{0xbcb2b812db11a5deu, 0x7415d448f6b6f0e8u}, /* -166 */
	{0xebdf661791d60f56u, 0x111b495b3464ad22u}, /* -165 */
	{0x936b9fcebb25c995u, 0xcab10dd900beec35u}, /* -164 */
	{0xb84687c269ef3bfbu, 0x3d5d514f40eea743u}, /* -163 */
	{0xe65829b3046b0afau, 0x0cb4a5a3112a5113u}, /* -162 */
	{0x8ff71a0fe2c2e6dcu, 0x47f0e785eaba72acu}, /* -161 */
	{0xb3f4e093db73a093u, 0x59ed216765690f57u}, /* -160 */
	{0xe0f218b8d25088b8u, 0x306869c13ec3532du}, /* -159 */
	{0x8c974f7383725573u, 0x1e414218c73a13fcu}, /* -158 */
	{0xafbd2350644eeacfu, 0xe5d1929ef90898fbu}, /* -157 */
	{0xdbac6c247d62a583u, 0xdf45f746b74abf3au}, /* -156 */
	{0x894bc396ce5da772u, 0x6b8bba8c328eb784u}, /* -155 */
	{0xab9eb47c81f5114fu, 0x066ea92f3f326565u}, /* -154 */
	{0xd686619ba27255a2u, 0xc80a537b0efefebeu}, /* -153 */
	{0x8613fd0145877585u, 0xbd06742ce95f5f37u}, /* -152 */
	{0xa798fc4196e952e7u, 0x2c48113823b73705u}, /* -151 */
	{0xd17f3b51fca3a7a0u, 0xf75a15862ca504c6u}, /* -150 */
	{0x82ef85133de648c4u, 0x9a984d73dbe722fcu}, /* -149 */
	{0xa3ab66580d5fdaf5u, 0xc13e60d0d2e0ebbbu}, /* -148 */
	{0xcc963fee10b7d1b3u, 0x318df905079926a9u}, /* -147 */
	{0xffbbcfe994e5c61fu, 0xfdf17746497f7053u}, /* -146 */
	{0x9fd561f1fd0f9bd3u, 0xfeb6ea8bedefa634u}, /* -145 */
	{0xc7caba6e7c5382c8u, 0xfe64a52ee96b8fc1u}, /* -144 */
	{0xf9bd690a1b68637bu, 0x3dfdce7aa3c673b1u}, /* -143 */
	{0x9c1661a651213e2du, 0x06bea10ca65c084fu}, /* -142 */
	{0xc31bfa0fe5698db8u, 0x486e494fcff30a63u}, /* -141 */
	{0xf3e2f893dec3f126u, 0x5a89dba3c3efccfbu}, /* -140 */
	{0x986ddb5c6b3a76b7u, 0xf89629465a75e01du}, /* -139 */
	{0xbe89523386091465u, 0xf6bbb397f1135824u}, /* -138 */
	{0xee2ba6c0678b597fu, 0x746aa07ded582e2du}, /* -137 */
	{0x94db483840b717efu, 0xa8c2a44eb4571cddu}, /* -136 */
	{0xba121a4650e4ddebu, 0x92f34d62616ce414u}, /* -135 */
	{0xe896a0d7e51e1566u, 0x77b020baf9c81d18u}, /* -134 */
	{0x915e2486ef32cd60u, 0x0ace1474dc1d122fu}, /* -133 */
	{0xb5b5ada8aaff80b8u, 0x0d819992132456bbu}, /* -132 */
	{0xe3231912d5bf60e6u, 0x10e1fff697ed6c6au}, /* -131 */
	{0x8df5efabc5979c8fu, 0xca8d3ffa1ef463c2u}, /* -130 */
	{0xb1736b96b6fd83b3u, 0xbd308ff8a6b17cb3u}, /* -129 */
	{0xddd0467c64bce4a0u, 0xac7cb3f6d05ddbdfu}, /* -128 */
	{0x8aa22c0dbef60ee4u, 0x6bcdf07a423aa96cu}, /* -127 */
	{0xad4ab7112eb3929du, 0x86c16c98d2c953c7u}, /* -126 */
	{0xd89d64d57a607744u, 0xe871c7bf077ba8b8u}, /* -125 */
	{0x87625f056c7c4a8bu, 0x11471cd764ad4973u}, /* -124 */
	{0xa93af6c6c79b5d2du, 0xd598e40d3dd89bd0u}, /* -123 */
	{0xd389b47879823479u, 0x4aff1d108d4ec2c4u}, /* -122 */
	{0x843610cb4bf160cbu, 0xcedf722a585139bbu}, /* -121 */
	{0xa54394fe1eedb8feu, 0xc2974eb4ee658829u}, /* -120 */
	{0xce947a3da6a9273eu, 0x733d226229feea33u}, /* -119 */
	{0x811ccc668829b887u, 0x0806357d5a3f5260u}, /* -118 */
	{0xa163ff802a3426a8u, 0xca07c2dcb0cf26f8u}, /* -117 */
	{0xc9bcff6034c13052u, 0xfc89b393dd02f0b6u}, /* -116 */
	{0xfc2c3f3841f17c67u, 0xbbac2078d443ace3u}, /* -115 */
	{0x9d9ba7832936edc0u, 0xd54b944b84aa4c0eu}, /* -114 */
	{0xc5029163f384a931u, 0x0a9e795e65d4df12u}, /* -113 */
	{0xf64335bcf065d37du, 0x4d4617b5ff4a16d6u}, /* -112 */
	{0x99ea0196163fa42eu, 0x504bced1bf8e4e46u}, /* -111 */
	{0xc06481fb9bcf8d39u, 0xe45ec2862f71e1d7u}, /* -110 */
	{0xf07da27a82c37088u, 0x5d767327bb4e5a4du}, /* -109 */
	{0x964e858c91ba2655u, 0x3a6a07f8d510f870u}, /* -108 */
	{0xbbe226efb628afeau, 0x890489f70a55368cu}, /* -107 */
	{0xeadab0aba3b2dbe5u, 0x2b45ac74ccea842fu}, /* -106 */
	{0x92c8ae6b464fc96fu, 0x3b0b8bc90012929eu}, /* -105 */
	{0xb77ada0617e3bbcbu, 0x09ce6ebb40173745u}, /* -104 */
	{0xe55990879ddcaabdu, 0xcc420a6a101d0516u}, /* -103 */
	{0x8f57fa54c2a9eab6u, 0x9fa946824a12232eu}, /* -102 */
	{0xb32df8e9f3546564u, 0x47939822dc96abfau}, /* -101 */
	{0xdff9772470297ebdu, 0x59787e2b93bc56f8u}, /* -100 */
	{0x8bfbea76c619ef36u, 0x57eb4edb3c55b65bu}, /* -99 */
	{0xaefae51477a06b03u, 0xede622920b6b23f2u}, /* -98 */
	{0xdab99e59958885c4u, 0xe95fab368e45eceeu}, /* -97 */
	{0x88b402f7fd75539bu, 0x11dbcb0218ebb415u}, /* -96 */
	{0xaae103b5fcd2a881u, 0xd652bdc29f26a11au}, /* -95 */
	{0xd59944a37c0752a2u, 0x4be76d3346f04960u}, /* -94 */
	{0x857fcae62d8493a5u, 0x6f70a4400c562ddcu}, /* -93 */
	{0xa6dfbd9fb8e5b88eu, 0xcb4ccd500f6bb953u}, /* -92 */
	{0xd097ad07a71f26b2u, 0x7e2000a41346a7a8u}, /* -91 */
	{0x825ecc24c873782fu, 0x8ed400668c0c28c9u}, /* -90 */
	{0xa2f67f2dfa90563bu, 0x728900802f0f32fbu}, /* -89 */
	{0xcbb41ef979346bcau, 0x4f2b40a03ad2ffbau}, /* -88 */
	{0xfea126b7d78186bcu, 0xe2f610c84987bfa9u}, /* -87 */
	{0x9f24b832e6b0f436u, 0x0dd9ca7d2df4d7cau}, /* -86 */
	{0xc6ede63fa05d3143u, 0x91503d1c79720dbcu}, /* -85 */
	{0xf8a95fcf88747d94u, 0x75a44c6397ce912bu}, /* -84 */
	{0x9b69dbe1b548ce7cu, 0xc986afbe3ee11abbu}, /* -83 */
	{0xc24452da229b021bu, 0xfbe85badce996169u}, /* -82 */
	{0xf2d56790ab41c2a2u, 0xfae27299423fb9c4u}, /* -81 */
	{0x97c560ba6b0919a5u, 0xdccd879fc967d41bu}, /* -80 */
	{0xbdb6b8e905cb600fu, 0x5400e987bbc1c921u}, /* -79 */
	{0xed246723473e3813u, 0x290123e9aab23b69u}, /* -78 */
	{0x9436c0760c86e30bu, 0xf9a0b6720aaf6522u}, /* -77 */
	{0xb94470938fa89bceu, 0xf808e40e8d5b3e6au}, /* -76 */
	{0xe7958cb87392c2c2u, 0xb60b1d1230b20e05u}, /* -75 */
	{0x90bd77f3483bb9b9u, 0xb1c6f22b5e6f48c3u}, /* -74 */
	{0xb4ecd5f01a4aa828u, 0x1e38aeb6360b1af4u}, /* -73 */
	{0xe2280b6c20dd5232u, 0x25c6da63c38de1b1u}, /* -72 */
	{0x8d590723948a535fu, 0x579c487e5a38ad0fu}, /* -71 */
	{0xb0af48ec79ace837u, 0x2d835a9df0c6d852u}, /* -70 */
	{0xdcdb1b2798182244u, 0xf8e431456cf88e66u}, /* -69 */
	{0x8a08f0f8bf0f156bu, 0x1b8e9ecb641b5900u}, /* -68 */
	{0xac8b2d36eed2dac5u, 0xe272467e3d222f40u}, /* -67 */
	{0xd7adf884aa879177u, 0x5b0ed81dcc6abb10u}, /* -66 */
	{0x86ccbb52ea94baeau, 0x98e947129fc2b4eau}, /* -65 */
	{0xa87fea27a539e9a5u, 0x3f2398d747b36225u}, /* -64 */
	{0xd29fe4b18e88640eu, 0x8eec7f0d19a03aaeu}, /* -63 */
	{0x83a3eeeef9153e89u, 0x1953cf68300424adu}, /* -62 */
	{0xa48ceaaab75a8e2bu, 0x5fa8c3423c052dd8u}, /* -61 */
	{0xcdb02555653131b6u, 0x3792f412cb06794eu}, /* -60 */
	{0x808e17555f3ebf11u, 0xe2bbd88bbee40bd1u}, /* -59 */
	{0xa0b19d2ab70e6ed6u, 0x5b6aceaeae9d0ec5u}, /* -58 */
	{0xc8de047564d20a8bu, 0xf245825a5a445276u}, /* -57 */
	{0xfb158592be068d2eu, 0xeed6e2f0f0d56713u}, /* -56 */
	{0x9ced737bb6c4183du, 0x55464dd69685606cu}, /* -55 */
	{0xc428d05aa4751e4cu, 0xaa97e14c3c26b887u}, /* -54 */
	{0xf53304714d9265dfu, 0xd53dd99f4b3066a9u}, /* -53 */
	{0x993fe2c6d07b7fabu, 0xe546a8038efe402au}, /* -52 */
	{0xbf8fdb78849a5f96u, 0xde98520472bdd034u}, /* -51 */
	{0xef73d256a5c0f77cu, 0x963e66858f6d4441u}, /* -50 */
	{0x95a8637627989aadu, 0xdde7001379a44aa9u}, /* -49 */
	{0xbb127c53b17ec159u, 0x5560c018580d5d53u}, /* -48 */
	{0xe9d71b689dde71afu, 0xaab8f01e6e10b4a7u}, /* -47 */
	{0x9226712162ab070du, 0xcab3961304ca70e9u}, /* -46 */
	{0xb6b00d69bb55c8d1u, 0x3d607b97c5fd0d23u}, /* -45 */
	{0xe45c10c42a2b3b05u, 0x8cb89a7db77c506bu}, /* -44 */
	{0x8eb98a7a9a5b04e3u, 0x77f3608e92adb243u}, /* -43 */
	{0xb267ed1940f1c61cu, 0x55f038b237591ed4u}, /* -42 */
	{0xdf01e85f912e37a3u, 0x6b6c46dec52f6689u}, /* -41 */
	{0x8b61313bbabce2c6u, 0x2323ac4b3b3da016u}, /* -40 */
	{0xae397d8aa96c1b77u, 0xabec975e0a0d081bu}, /* -39 */
	{0xd9c7dced53c72255u, 0x96e7bd358c904a22u}, /* -38 */
	{0x881cea14545c7575u, 0x7e50d64177da2e55u}, /* -37 */
	{0xaa242499697392d2u, 0xdde50bd1d5d0b9eau}, /* -36 */
	{0xd4ad2dbfc3d07787u, 0x955e4ec64b44e865u}, /* -35 */
	{0x84ec3c97da624ab4u, 0xbd5af13bef0b113fu}, /* -34 */
	{0xa6274bbdd0fadd61u, 0xecb1ad8aeacdd58fu}, /* -33 */
	{0xcfb11ead453994bau, 0x67de18eda5814af3u}, /* -32 */
	{0x81ceb32c4b43fcf4u, 0x80eacf948770ced8u}, /* -31 */
	{0xa2425ff75e14fc31u, 0xa1258379a94d028eu}, /* -30 */
	{0xcad2f7f5359a3b3eu, 0x096ee45813a04331u}, /* -29 */
	{0xfd87b5f28300ca0du, 0x8bca9d6e188853fdu}, /* -28 */
	{0x9e74d1b791e07e48u, 0x775ea264cf55347eu}, /* -27 */
	{0xc612062576589ddau, 0x95364afe032a819eu}, /* -26 */
	{0xf79687aed3eec551u, 0x3a83ddbd83f52205u}, /* -25 */
	{0x9abe14cd44753b52u, 0xc4926a9672793543u}, /* -24 */
	{0xc16d9a0095928a27u, 0x75b7053c0f178294u}, /* -23 */
	{0xf1c90080baf72cb1u, 0x5324c68b12dd6339u}, /* -22 */
	{0x971da05074da7beeu, 0xd3f6fc16ebca5e04u}, /* -21 */
	{0xbce5086492111aeau, 0x88f4bb1ca6bcf585u}, /* -20 */
	{0xec1e4a7db69561a5u, 0x2b31e9e3d06c32e6u}, /* -19 */
	{0x9392ee8e921d5d07u, 0x3aff322e62439fd0u}, /* -18 */
	{0xb877aa3236a4b449u, 0x09befeb9fad487c3u}, /* -17 */
	{0xe69594bec44de15bu, 0x4c2ebe687989a9b4u}, /* -16 */
	{0x901d7cf73ab0acd9u, 0x0f9d37014bf60a11u}, /* -15 */
	{0xb424dc35095cd80fu, 0x538484c19ef38c95u}, /* -14 */
	{0xe12e13424bb40e13u, 0x2865a5f206b06fbau}, /* -13 */
	{0x8cbccc096f5088cbu, 0xf93f87b7442e45d4u}, /* -12 */
	{0xafebff0bcb24aafeu, 0xf78f69a51539d749u}, /* -11 */
	{0xdbe6fecebdedd5beu, 0xb573440e5a884d1cu}, /* -10 */
	{0x89705f4136b4a597u, 0x31680a88f8953031u}, /* -9 */
	{0xabcc77118461cefcu, 0xfdc20d2b36ba7c3eu}, /* -8 */
	{0xd6bf94d5e57a42bcu, 0x3d32907604691b4du}, /* -7 */
	{0x8637bd05af6c69b5u, 0xa63f9a49c2c1b110u}, /* -6 */
	{0xa7c5ac471b478423u, 0x0fcf80dc33721d54u}, /* -5 */
	{0xd1b71758e219652bu, 0xd3c36113404ea4a9u}, /* -4 */
	{0x83126e978d4fdf3bu, 0x645a1cac083126eau}, /* -3 */
	{0xa3d70a3d70a3d70au, 0x3d70a3d70a3d70a4u}, /* -2 */
	{0xccccccccccccccccu, 0xcccccccccccccccdu}, /* -1 */
	{0x8000000000000000u, 0x0000000000000001u}, /* 0 */
	{0xa000000000000000u, 0x0000000000000001u}, /* 1 */
	{0xc800000000000000u, 0x0000000000000001u}, /* 2 */
	{0xfa00000000000000u, 0x0000000000000001u}, /* 3 */
	{0x9c40000000000000u, 0x0000000000000001u}, /* 4 */
	{0xc350000000000000u, 0x0000000000000001u}, /* 5 */
	{0xf424000000000000u, 0x0000000000000001u}, /* 6 */
	{0x9896800000000000u, 0x0000000000000001u}, /* 7 */
	{0xbebc200000000000u, 0x0000000000000001u}, /* 8 */
	{0xee6b280000000000u, 0x0000000000000001u}, /* 9 */
	{0x9502f90000000000u, 0x0000000000000001u}, /* 10 */
	{0xba43b74000000000u, 0x0000000000000001u}, /* 11 */
	{0xe8d4a51000000000u, 0x0000000000000001u}, /* 12 */
	{0x9184e72a00000000u, 0x0000000000000001u}, /* 13 */
	{0xb5e620f480000000u, 0x0000000000000001u}, /* 14 */
	{0xe35fa931a0000000u, 0x0000000000000001u}, /* 15 */
	{0x8e1bc9bf04000000u, 0x0000000000000001u}, /* 16 */
	{0xb1a2bc2ec5000000u, 0x0000000000000001u}, /* 17 */
	{0xde0b6b3a76400000u, 0x0000000000000001u}, /* 18 */
	{0x8ac7230489e80000u, 0x0000000000000001u}, /* 19 */
	{0xad78ebc5ac620000u, 0x0000000000000001u}, /* 20 */
	{0xd8d726b7177a8000u, 0x0000000000000001u}, /* 21 */
	{0x878678326eac9000u, 0x0000000000000001u}, /* 22 */
	{0xa968163f0a57b400u, 0x0000000000000001u}, /* 23 */
	{0xd3c21bcecceda100u, 0x0000000000000001u}, /* 24 */
	{0x84595161401484a0u, 0x0000000000000001u}, /* 25 */
	{0xa56fa5b99019a5c8u, 0x0000000000000001u}, /* 26 */
	{0xcecb8f27f4200f3au, 0x0000000000000001u}, /* 27 */
	{0x813f3978f8940984u, 0x4000000000000001u}, /* 28 */
	{0xa18f07d736b90be5u, 0x5000000000000001u}, /* 29 */
	{0xc9f2c9cd04674edeu, 0xa400000000000001u}, /* 30 */
	{0xfc6f7c4045812296u, 0x4d00000000000001u}, /* 31 */
	{0x9dc5ada82b70b59du, 0xf020000000000001u}, /* 32 */
	{0xc5371912364ce305u, 0x6c28000000000001u}, /* 33 */
	{0xf684df56c3e01bc6u, 0xc732000000000001u}, /* 34 */
	{0x9a130b963a6c115cu, 0x3c7f400000000001u}, /* 35 */
	{0xc097ce7bc90715b3u, 0x4b9f100000000001u}, /* 36 */
	{0xf0bdc21abb48db20u, 0x1e86d40000000001u}, /* 37 */
	{0x96769950b50d88f4u, 0x1314448000000001u}, /* 38 */
	{0xbc143fa4e250eb31u, 0x17d955a000000001u}, /* 39 */
	{0xeb194f8e1ae525fdu, 0x5dcfab0800000001u}, /* 40 */
	{0x92efd1b8d0cf37beu, 0x5aa1cae500000001u}, /* 41 */
	{0xb7abc627050305adu, 0xf14a3d9e40000001u}, /* 42 */
	{0xe596b7b0c643c719u, 0x6d9ccd05d0000001u}, /* 43 */
	{0x8f7e32ce7bea5c6fu, 0xe4820023a2000001u}, /* 44 */
	{0xb35dbf821ae4f38bu, 0xdda2802c8a800001u}, /* 45 */
	{0xe0352f62a19e306eu, 0xd50b2037ad200001u}, /* 46 */
	{0x8c213d9da502de45u, 0x4526f422cc340001u}, /* 47 */
	{0xaf298d050e4395d6u, 0x9670b12b7f410001u}, /* 48 */
	{0xdaf3f04651d47b4cu, 0x3c0cdd765f114001u}, /* 49 */
	{0x88d8762bf324cd0fu, 0xa5880a69fb6ac801u}, /* 50 */
	{0xab0e93b6efee0053u, 0x8eea0d047a457a01u}, /* 51 */
	{0xd5d238a4abe98068u, 0x72a4904598d6d881u}, /* 52 */
	{0x85a36366eb71f041u, 0x47a6da2b7f864751u}, /* 53 */
	{0xa70c3c40a64e6c51u, 0x999090b65f67d925u}, /* 54 */
	{0xd0cf4b50cfe20765u, 0xfff4b4e3f741cf6eu}, /* 55 */
	{0x82818f1281ed449fu, 0xbff8f10e7a8921a5u}, /* 56 */
	{0xa321f2d7226895c7u, 0xaff72d52192b6a0eu}, /* 57 */
	{0xcbea6f8ceb02bb39u, 0x9bf4f8a69f764491u}, /* 58 */
	{0xfee50b7025c36a08u, 0x02f236d04753d5b5u}, /* 59 */
	{0x9f4f2726179a2245u, 0x01d762422c946591u}, /* 60 */
	{0xc722f0ef9d80aad6u, 0x424d3ad2b7b97ef6u}, /* 61 */
	{0xf8ebad2b84e0d58bu, 0xd2e0898765a7deb3u}, /* 62 */
	{0x9b934c3b330c8577u, 0x63cc55f49f88eb30u}, /* 63 */
	{0xc2781f49ffcfa6d5u, 0x3cbf6b71c76b25fcu}, /* 64 */
	{0xf316271c7fc3908au, 0x8bef464e3945ef7bu}, /* 65 */
	{0x97edd871cfda3a56u, 0x97758bf0e3cbb5adu}, /* 66 */
	{0xbde94e8e43d0c8ecu, 0x3d52eeed1cbea318u}, /* 67 */
	{0xed63a231d4c4fb27u, 0x4ca7aaa863ee4bdeu}, /* 68 */
	{0x945e455f24fb1cf8u, 0x8fe8caa93e74ef6bu}, /* 69 */
	{0xb975d6b6ee39e436u, 0xb3e2fd538e122b45u}, /* 70 */
	{0xe7d34c64a9c85d44u, 0x60dbbca87196b617u}, /* 71 */
	{0x90e40fbeea1d3a4au, 0xbc8955e946fe31ceu}, /* 72 */
	{0xb51d13aea4a488ddu, 0x6babab6398bdbe42u}, /* 73 */
	{0xe264589a4dcdab14u, 0xc696963c7eed2dd2u}, /* 74 */
	{0x8d7eb76070a08aecu, 0xfc1e1de5cf543ca3u}, /* 75 */
	{0xb0de65388cc8ada8u, 0x3b25a55f43294bccu}, /* 76 */
	{0xdd15fe86affad912u, 0x49ef0eb713f39ebfu}, /* 77 */
	{0x8a2dbf142dfcc7abu, 0x6e3569326c784338u}, /* 78 */
	{0xacb92ed9397bf996u, 0x49c2c37f07965405u}, /* 79 */
	{0xd7e77a8f87daf7fbu, 0xdc33745ec97be907u}, /* 80 */
	{0x86f0ac99b4e8dafdu, 0x69a028bb3ded71a4u}, /* 81 */
	{0xa8acd7c0222311bcu, 0xc40832ea0d68ce0du}, /* 82 */
	{0xd2d80db02aabd62bu, 0xf50a3fa490c30191u}, /* 83 */
	{0x83c7088e1aab65dbu, 0x792667c6da79e0fbu}, /* 84 */
	{0xa4b8cab1a1563f52u, 0x577001b891185939u}, /* 85 */
	{0xcde6fd5e09abcf26u, 0xed4c0226b55e6f87u}, /* 86 */
	{0x80b05e5ac60b6178u, 0x544f8158315b05b5u}, /* 87 */
	{0xa0dc75f1778e39d6u, 0x696361ae3db1c722u}, /* 88 */
	{0xc913936dd571c84cu, 0x03bc3a19cd1e38eau}, /* 89 */
	{0xfb5878494ace3a5fu, 0x04ab48a04065c724u}, /* 90 */
	{0x9d174b2dcec0e47bu, 0x62eb0d64283f9c77u}, /* 91 */
	{0xc45d1df942711d9au, 0x3ba5d0bd324f8395u}, /* 92 */
	{0xf5746577930d6500u, 0xca8f44ec7ee3647au}, /* 93 */
	{0x9968bf6abbe85f20u, 0x7e998b13cf4e1eccu}, /* 94 */
	{0xbfc2ef456ae276e8u, 0x9e3fedd8c321a67fu}, /* 95 */
	{0xefb3ab16c59b14a2u, 0xc5cfe94ef3ea101fu}, /* 96 */
	{0x95d04aee3b80ece5u, 0xbba1f1d158724a13u}, /* 97 */
	{0xbb445da9ca61281fu, 0x2a8a6e45ae8edc98u}, /* 98 */
	{0xea1575143cf97226u, 0xf52d09d71a3293beu}, /* 99 */
	{0x924d692ca61be758u, 0x593c2626705f9c57u}, /* 100 */
	{0xb6e0c377cfa2e12eu, 0x6f8b2fb00c77836du}, /* 101 */
	{0xe498f455c38b997au, 0x0b6dfb9c0f956448u}, /* 102 */
	{0x8edf98b59a373fecu, 0x4724bd4189bd5eadu}, /* 103 */
	{0xb2977ee300c50fe7u, 0x58edec91ec2cb658u}, /* 104 */
	{0xdf3d5e9bc0f653e1u, 0x2f2967b66737e3eeu}, /* 105 */
	{0x8b865b215899f46cu, 0xbd79e0d20082ee75u}, /* 106 */
	{0xae67f1e9aec07187u, 0xecd8590680a3aa12u}, /* 107 */
	{0xda01ee641a708de9u, 0xe80e6f4820cc9496u}, /* 108 */
	{0x884134fe908658b2u, 0x3109058d147fdcdeu}, /* 109 */
	{0xaa51823e34a7eedeu, 0xbd4b46f0599fd416u}, /* 110 */
	{0xd4e5e2cdc1d1ea96u, 0x6c9e18ac7007c91bu}, /* 111 */
	{0x850fadc09923329eu, 0x03e2cf6bc604ddb1u}, /* 112 */
	{0xa6539930bf6bff45u, 0x84db8346b786151du}, /* 113 */
	{0xcfe87f7cef46ff16u, 0xe612641865679a64u}, /* 114 */
	{0x81f14fae158c5f6eu, 0x4fcb7e8f3f60c07fu}, /* 115 */
	{0xa26da3999aef7749u, 0xe3be5e330f38f09eu}, /* 116 */
	{0xcb090c8001ab551cu, 0x5cadf5bfd3072cc6u}, /* 117 */
	{0xfdcb4fa002162a63u, 0x73d9732fc7c8f7f7u}, /* 118 */
	{0x9e9f11c4014dda7eu, 0x2867e7fddcdd9afbu}, /* 119 */
	{0xc646d63501a1511du, 0xb281e1fd541501b9u}, /* 120 */
	{0xf7d88bc24209a565u, 0x1f225a7ca91a4227u}, /* 121 */
	{0x9ae757596946075fu, 0x3375788de9b06959u}, /* 122 */
	{0xc1a12d2fc3978937u, 0x0052d6b1641c83afu}, /* 123 */
	{0xf209787bb47d6b84u, 0xc0678c5dbd23a49bu}, /* 124 */
	{0x9745eb4d50ce6332u, 0xf840b7ba963646e1u}, /* 125 */
	{0xbd176620a501fbffu, 0xb650e5a93bc3d899u}, /* 126 */
	{0xec5d3fa8ce427affu, 0xa3e51f138ab4cebfu}, /* 127 */
	{0x93ba47c980e98cdfu, 0xc66f336c36b10138u}, /* 128 */
	{0xb8a8d9bbe123f017u, 0xb80b0047445d4185u}, /* 129 */
	{0xe6d3102ad96cec1du, 0xa60dc059157491e6u}, /* 130 */
	{0x9043ea1ac7e41392u, 0x87c89837ad68db30u}, /* 131 */
	{0xb454e4a179dd1877u, 0x29babe4598c311fcu}, /* 132 */
	{0xe16a1dc9d8545e94u, 0xf4296dd6fef3d67bu}, /* 133 */
	{0x8ce2529e2734bb1du, 0x1899e4a65f58660du}, /* 134 */
	{0xb01ae745b101e9e4u, 0x5ec05dcff72e7f90u}, /* 135 */
	{0xdc21a1171d42645du, 0x76707543f4fa1f74u}, /* 136 */
	{0x899504ae72497ebau, 0x6a06494a791c53a9u}, /* 137 */
	{0xabfa45da0edbde69u, 0x0487db9d17636893u}, /* 138 */
	{0xd6f8d7509292d603u, 0x45a9d2845d3c42b7u}, /* 139 */
	{0x865b86925b9bc5c2u, 0x0b8a2392ba45a9b3u}, /* 140 */
	{0xa7f26836f282b732u, 0x8e6cac7768d7141fu}, /* 141 */
	{0xd1ef0244af2364ffu, 0x3207d795430cd927u}, /* 142 */
	{0x8335616aed761f1fu, 0x7f44e6bd49e807b9u}, /* 143 */
	{0xa402b9c5a8d3a6e7u, 0x5f16206c9c6209a7u}, /* 144 */
	{0xcd036837130890a1u, 0x36dba887c37a8c10u}, /* 145 */
	{0x802221226be55a64u, 0xc2494954da2c978au}, /* 146 */
	{0xa02aa96b06deb0fdu, 0xf2db9baa10b7bd6du}, /* 147 */
	{0xc83553c5c8965d3du, 0x6f92829494e5acc8u}, /* 148 */
	{0xfa42a8b73abbf48cu, 0xcb772339ba1f17fau}, /* 149 */
	{0x9c69a97284b578d7u, 0xff2a760414536efcu}, /* 150 */
	{0xc38413cf25e2d70du, 0xfef5138519684abbu}, /* 151 */
	{0xf46518c2ef5b8cd1u, 0x7eb258665fc25d6au}, /* 152 */
	{0x98bf2f79d5993802u, 0xef2f773ffbd97a62u}, /* 153 */
	{0xbeeefb584aff8603u, 0xaafb550ffacfd8fbu}, /* 154 */
	{0xeeaaba2e5dbf6784u, 0x95ba2a53f983cf39u}, /* 155 */
	{0x952ab45cfa97a0b2u, 0xdd945a747bf26184u}, /* 156 */
	{0xba756174393d88dfu, 0x94f971119aeef9e5u}, /* 157 */
	{0xe912b9d1478ceb17u, 0x7a37cd5601aab85eu}, /* 158 */
	{0x91abb422ccb812eeu, 0xac62e055c10ab33bu}, /* 159 */
	{0xb616a12b7fe617aau, 0x577b986b314d600au}, /* 160 */
	{0xe39c49765fdf9d94u, 0xed5a7e85fda0b80cu}, /* 161 */
	{0x8e41ade9fbebc27du, 0x14588f13be847308u}, /* 162 */
	{0xb1d219647ae6b31cu, 0x596eb2d8ae258fc9u}, /* 163 */
	{0xde469fbd99a05fe3u, 0x6fca5f8ed9aef3bcu}, /* 164 */
	{0x8aec23d680043beeu, 0x25de7bb9480d5855u}, /* 165 */
	{0xada72ccc20054ae9u, 0xaf561aa79a10ae6bu}, /* 166 */
	{0xd910f7ff28069da4u, 0x1b2ba1518094da05u}, /* 167 */
	{0x87aa9aff79042286u, 0x90fb44d2f05d0843u}, /* 168 */
	{0xa99541bf57452b28u, 0x353a1607ac744a54u}, /* 169 */
	{0xd3fa922f2d1675f2u, 0x42889b8997915ce9u}, /* 170 */
	{0x847c9b5d7c2e09b7u, 0x69956135febada12u}, /* 171 */
	{0xa59bc234db398c25u, 0x43fab9837e699096u}, /* 172 */
	{0xcf02b2c21207ef2eu, 0x94f967e45e03f4bcu}, /* 173 */
	{0x8161afb94b44f57du, 0x1d1be0eebac278f6u}, /* 174 */
	{0xa1ba1ba79e1632dcu, 0x6462d92a69731733u}, /* 175 */
	{0xca28a291859bbf93u, 0x7d7b8f7503cfdcffu}, /* 176 */
	{0xfcb2cb35e702af78u, 0x5cda735244c3d43fu}, /* 177 */
	{0x9defbf01b061adabu, 0x3a0888136afa64a8u}, /* 178 */
	{0xc56baec21c7a1916u, 0x088aaa1845b8fdd1u}, /* 179 */
	{0xf6c69a72a3989f5bu, 0x8aad549e57273d46u}, /* 180 */
	{0x9a3c2087a63f6399u, 0x36ac54e2f678864cu}, /* 181 */
	{0xc0cb28a98fcf3c7fu, 0x84576a1bb416a7deu}, /* 182 */
	{0xf0fdf2d3f3c30b9fu, 0x656d44a2a11c51d6u}, /* 183 */
	{0x969eb7c47859e743u, 0x9f644ae5a4b1b326u}, /* 184 */
	{0xbc4665b596706114u, 0x873d5d9f0dde1fefu}, /* 185 */
	{0xeb57ff22fc0c7959u, 0xa90cb506d155a7ebu}, /* 186 */
	{0x9316ff75dd87cbd8u, 0x09a7f12442d588f3u}, /* 187 */
	{0xb7dcbf5354e9beceu, 0x0c11ed6d538aeb30u}, /* 188 */
	{0xe5d3ef282a242e81u, 0x8f1668c8a86da5fbu}, /* 189 */
	{0x8fa475791a569d10u, 0xf96e017d694487bdu}, /* 190 */
	{0xb38d92d760ec4455u, 0x37c981dcc395a9adu}, /* 191 */
	{0xe070f78d3927556au, 0x85bbe253f47b1418u}, /* 192 */
	{0x8c469ab843b89562u, 0x93956d7478ccec8fu}, /* 193 */
	{0xaf58416654a6babbu, 0x387ac8d1970027b3u}, /* 194 */
	{0xdb2e51bfe9d0696au, 0x06997b05fcc0319fu}, /* 195 */
	{0x88fcf317f22241e2u, 0x441fece3bdf81f04u}, /* 196 */
	{0xab3c2fddeeaad25au, 0xd527e81cad7626c4u}, /* 197 */
	{0xd60b3bd56a5586f1u, 0x8a71e223d8d3b075u}, /* 198 */
	{0x85c7056562757456u, 0xf6872d5667844e4au}, /* 199 */
	{0xa738c6bebb12d16cu, 0xb428f8ac016561dcu}, /* 200 */
	{0xd106f86e69d785c7u, 0xe13336d701beba53u}, /* 201 */
	{0x82a45b450226b39cu, 0xecc0024661173474u}, /* 202 */
	{0xa34d721642b06084u, 0x27f002d7f95d0191u}, /* 203 */
	{0xcc20ce9bd35c78a5u, 0x31ec038df7b441f5u}, /* 204 */
	{0xff290242c83396ceu, 0x7e67047175a15272u}, /* 205 */
	{0x9f79a169bd203e41u, 0x0f0062c6e984d387u}, /* 206 */
	{0xc75809c42c684dd1u, 0x52c07b78a3e60869u}, /* 207 */
	{0xf92e0c3537826145u, 0xa7709a56ccdf8a83u}, /* 208 */
	{0x9bbcc7a142b17ccbu, 0x88a66076400bb692u}, /* 209 */
	{0xc2abf989935ddbfeu, 0x6acff893d00ea436u}, /* 210 */
	{0xf356f7ebf83552feu, 0x0583f6b8c4124d44u}, /* 211 */
	{0x98165af37b2153deu, 0xc3727a337a8b704bu}, /* 212 */
	{0xbe1bf1b059e9a8d6u, 0x744f18c0592e4c5du}, /* 213 */
	{0xeda2ee1c7064130cu, 0x1162def06f79df74u}, /* 214 */
	{0x9485d4d1c63e8be7u, 0x8addcb5645ac2ba9u}, /* 215 */
	{0xb9a74a0637ce2ee1u, 0x6d953e2bd7173693u}, /* 216 */
	{0xe8111c87c5c1ba99u, 0xc8fa8db6ccdd0438u}, /* 217 */
	{0x910ab1d4db9914a0u, 0x1d9c9892400a22a3u}, /* 218 */
	{0xb54d5e4a127f59c8u, 0x2503beb6d00cab4cu}, /* 219 */
	{0xe2a0b5dc971f303au, 0x2e44ae64840fd61eu}, /* 220 */
	{0x8da471a9de737e24u, 0x5ceaecfed289e5d3u}, /* 221 */
	{0xb10d8e1456105dadu, 0x7425a83e872c5f48u}, /* 222 */
	{0xdd50f1996b947518u, 0xd12f124e28f7771au}, /* 223 */
	{0x8a5296ffe33cc92fu, 0x82bd6b70d99aaa70u}, /* 224 */
	{0xace73cbfdc0bfb7bu, 0x636cc64d1001550cu}, /* 225 */
	{0xd8210befd30efa5au, 0x3c47f7e05401aa4fu}, /* 226 */
	{0x8714a775e3e95c78u, 0x65acfaec34810a72u}, /* 227 */
	{0xa8d9d1535ce3b396u, 0x7f1839a741a14d0eu}, /* 228 */
	{0xd31045a8341ca07cu, 0x1ede48111209a051u}, /* 229 */
	{0x83ea2b892091e44du, 0x934aed0aab460433u}, /* 230 */
	{0xa4e4b66b68b65d60u, 0xf81da84d56178540u}, /* 231 */
	{0xce1de40642e3f4b9u, 0x36251260ab9d668fu}, /* 232 */
	{0x80d2ae83e9ce78f3u, 0xc1d72b7c6b42601au}, /* 233 */
	{0xa1075a24e4421730u, 0xb24cf65b8612f820u}, /* 234 */
	{0xc94930ae1d529cfcu, 0xdee033f26797b628u}, /* 235 */
	{0xfb9b7cd9a4a7443cu, 0x169840ef017da3b2u}, /* 236 */
	{0x9d412e0806e88aa5u, 0x8e1f289560ee864fu}, /* 237 */
	{0xc491798a08a2ad4eu, 0xf1a6f2bab92a27e3u}, /* 238 */
	{0xf5b5d7ec8acb58a2u, 0xae10af696774b1dcu}, /* 239 */
	{0x9991a6f3d6bf1765u, 0xacca6da1e0a8ef2au}, /* 240 */
	{0xbff610b0cc6edd3fu, 0x17fd090a58d32af4u}, /* 241 */
	{0xeff394dcff8a948eu, 0xddfc4b4cef07f5b1u}, /* 242 */
	{0x95f83d0a1fb69cd9u, 0x4abdaf101564f98fu}, /* 243 */
	{0xbb764c4ca7a4440fu, 0x9d6d1ad41abe37f2u}, /* 244 */
	{0xea53df5fd18d5513u, 0x84c86189216dc5eeu}, /* 245 */
	{0x92746b9be2f8552cu, 0x32fd3cf5b4e49bb5u}, /* 246 */
	{0xb7118682dbb66a77u, 0x3fbc8c33221dc2a2u}, /* 247 */
	{0xe4d5e82392a40515u, 0x0fabaf3feaa5334bu}, /* 248 */
	{0x8f05b1163ba6832du, 0x29cb4d87f2a7400fu}, /* 249 */
	{0xb2c71d5bca9023f8u, 0x743e20e9ef511013u}, /* 250 */
	{0xdf78e4b2bd342cf6u, 0x914da9246b255417u}, /* 251 */
	{0x8bab8eefb6409c1au, 0x1ad089b6c2f7548fu}, /* 252 */
	{0xae9672aba3d0c320u, 0xa184ac2473b529b2u}, /* 253 */
	{0xda3c0f568cc4f3e8u, 0xc9e5d72d90a2741fu}, /* 254 */
	{0x8865899617fb1871u, 0x7e2fa67c7a658893u}, /* 255 */
	{0xaa7eebfb9df9de8du, 0xddbb901b98feeab8u}, /* 256 */
	{0xd51ea6fa85785631u, 0x552a74227f3ea566u}, /* 257 */
	{0x8533285c936b35deu, 0xd53a88958f872760u}, /* 258 */
	{0xa67ff273b8460356u, 0x8a892abaf368f138u}, /* 259 */
	{0xd01fef10a657842cu, 0x2d2b7569b0432d86u}, /* 260 */
	{0x8213f56a67f6b29bu, 0x9c3b29620e29fc74u}, /* 261 */
	{0xa298f2c501f45f42u, 0x8349f3ba91b47b90u}, /* 262 */
	{0xcb3f2f7642717713u, 0x241c70a936219a74u}, /* 263 */
	{0xfe0efb53d30dd4d7u, 0xed238cd383aa0111u}, /* 264 */
	{0x9ec95d1463e8a506u, 0xf4363804324a40abu}, /* 265 */
	{0xc67bb4597ce2ce48u, 0xb143c6053edcd0d6u}, /* 266 */
	{0xf81aa16fdc1b81dau, 0xdd94b7868e94050bu}, /* 267 */
	{0x9b10a4e5e9913128u, 0xca7cf2b4191c8327u}, /* 268 */
	{0xc1d4ce1f63f57d72u, 0xfd1c2f611f63a3f1u}, /* 269 */
	{0xf24a01a73cf2dccfu, 0xbc633b39673c8cedu}, /* 270 */
	{0x976e41088617ca01u, 0xd5be0503e085d814u}, /* 271 */
	{0xbd49d14aa79dbc82u, 0x4b2d8644d8a74e19u}, /* 272 */
	{0xec9c459d51852ba2u, 0xddf8e7d60ed1219fu}, /* 273 */
	{0x93e1ab8252f33b45u, 0xcabb90e5c942b504u}, /* 274 */
	{0xb8da1662e7b00a17u, 0x3d6a751f3b936244u}, /* 275 */
	{0xe7109bfba19c0c9du, 0x0cc512670a783ad5u}, /* 276 */
	{0x906a617d450187e2u, 0x27fb2b80668b24c6u}, /* 277 */
	{0xb484f9dc9641e9dau, 0xb1f9f660802dedf7u}, /* 278 */
	{0xe1a63853bbd26451u, 0x5e7873f8a0396974u}, /* 279 */
	{0x8d07e33455637eb2u, 0xdb0b487b6423e1e9u}, /* 280 */
	{0xb049dc016abc5e5fu, 0x91ce1a9a3d2cda63u}, /* 281 */
	{0xdc5c5301c56b75f7u, 0x7641a140cc7810fcu}, /* 282 */
	{0x89b9b3e11b6329bau, 0xa9e904c87fcb0a9eu}, /* 283 */
	{0xac2820d9623bf429u, 0x546345fa9fbdcd45u}, /* 284 */
	{0xd732290fbacaf133u, 0xa97c177947ad4096u}, /* 285 */
	{0x867f59a9d4bed6c0u, 0x49ed8eabcccc485eu}, /* 286 */
	{0xa81f301449ee8c70u, 0x5c68f256bfff5a75u}, /* 287 */
	{0xd226fc195c6a2f8cu, 0x73832eec6fff3112u}, /* 288 */
	{0x83585d8fd9c25db7u, 0xc831fd53c5ff7eacu}, /* 289 */
	{0xa42e74f3d032f525u, 0xba3e7ca8b77f5e56u}, /* 290 */
	{0xcd3a1230c43fb26fu, 0x28ce1bd2e55f35ecu}, /* 291 */
	{0x80444b5e7aa7cf85u, 0x7980d163cf5b81b4u}, /* 292 */
	{0xa0555e361951c366u, 0xd7e105bcc3326220u}, /* 293 */
	{0xc86ab5c39fa63440u, 0x8dd9472bf3fefaa8u}, /* 294 */
	{0xfa856334878fc150u, 0xb14f98f6f0feb952u}, /* 295 */
	{0x9c935e00d4b9d8d2u, 0x6ed1bf9a569f33d4u}, /* 296 */
	{0xc3b8358109e84f07u, 0x0a862f80ec4700c9u}, /* 297 */
	{0xf4a642e14c6262c8u, 0xcd27bb612758c0fbu}, /* 298 */
	{0x98e7e9cccfbd7dbdu, 0x8038d51cb897789du}, /* 299 */
	{0xbf21e44003acdd2cu, 0xe0470a63e6bd56c4u}, /* 300 */
	{0xeeea5d5004981478u, 0x1858ccfce06cac75u}, /* 301 */
	{0x95527a5202df0ccbu, 0x0f37801e0c43ebc9u}, /* 302 */
	{0xbaa718e68396cffdu, 0xd30560258f54e6bbu}, /* 303 */
	{0xe950df20247c83fdu, 0x47c6b82ef32a206au}, /* 304 */
	{0x91d28b7416cdd27eu, 0x4cdc331d57fa5442u}, /* 305 */
	{0xb6472e511c81471du, 0xe0133fe4adf8e953u}, /* 306 */
	{0xe3d8f9e563a198e5u, 0x58180fddd97723a7u}, /* 307 */
	{0x8e679c2f5e44ff8fu, 0x570f09eaa7ea7649u}, /* 308 */
	{0xb201833b35d63f73u, 0x2cd2cc6551e513dbu}, /* 309 */
	{0xde81e40a034bcf4fu, 0xf8077f7ea65e58d2u}, /* 310 */
	{0x8b112e86420f6191u, 0xfb04afaf27faf783u}, /* 311 */
	{0xadd57a27d29339f6u, 0x79c5db9af1f9b564u}, /* 312 */
	{0xd94ad8b1c7380874u, 0x18375281ae7822bdu}, /* 313 */
	{0x87cec76f1c830548u, 0x8f2293910d0b15b6u}, /* 314 */
	{0xa9c2794ae3a3c69au, 0xb2eb3875504ddb23u}, /* 315 */
	{0xd433179d9c8cb841u, 0x5fa60692a46151ecu}, /* 316 */
	{0x849feec281d7f328u, 0xdbc7c41ba6bcd334u}, /* 317 */
	{0xa5c7ea73224deff3u, 0x12b9b522906c0801u}, /* 318 */
	{0xcf39e50feae16befu, 0xd768226b34870a01u}, /* 319 */
	{0x81842f29f2cce375u, 0xe6a1158300d46641u}, /* 320 */
	{0xa1e53af46f801c53u, 0x60495ae3c1097fd1u}, /* 321 */
	{0xca5e89b18b602368u, 0x385bb19cb14bdfc5u}, /* 322 */
	{0xfcf62c1dee382c42u, 0x46729e03dd9ed7b6u}, /* 323 */
	{0x9e19db92b4e31ba9u, 0x6c07a2c26a8346d2u}, /* 324 */
	{0xc5a05277621be293u, 0xc7098b7305241886u}, /* 325 */
	{0xf70867153aa2db38u, 0xb8cbee4fc66d1ea8u}, /* 326 */
	{0x9a65406d44a5c903u, 0x737f74f1dc043329u}, /* 327 */
	{0xc0fe908895cf3b44u, 0x505f522e53053ff3u}, /* 328 */
	{0xf13e34aabb430a15u, 0x647726b9e7c68ff0u}, /* 329 */
	{0x96c6e0eab509e64du, 0x5eca783430dc19f6u}, /* 330 */
	{0xbc789925624c5fe0u, 0xb67d16413d132073u}, /* 331 */
	{0xeb96bf6ebadf77d8u, 0xe41c5bd18c57e890u}, /* 332 */
	{0x933e37a534cbaae7u, 0x8e91b962f7b6f15au}, /* 333 */
	{0xb80dc58e81fe95a1u, 0x723627bbb5a4adb1u}, /* 334 */
	{0xe61136f2227e3b09u, 0xcec3b1aaa30dd91du}, /* 335 */
	{0x8fcac257558ee4e6u, 0x213a4f0aa5e8a7b2u}, /* 336 */
	{0xb3bd72ed2af29e1fu, 0xa988e2cd4f62d19eu}, /* 337 */
	{0xe0accfa875af45a7u, 0x93eb1b80a33b8606u}, /* 338 */
	{0x8c6c01c9498d8b88u, 0xbc72f130660533c4u}, /* 339 */
	{0xaf87023b9bf0ee6au, 0xeb8fad7c7f8680b5u}, /* 340 */
	{0xdb68c2ca82ed2a05u, 0xa67398db9f6820e2u}, /* 341 */
};
static const uint64_t pow10f_tab[78] = {
	0x81ceb32c4b43fcf5u, /* -31 */
	0xa2425ff75e14fc32u, /* -30 */
	0xcad2f7f5359a3b3fu, /* -29 */
	0xfd87b5f28300ca0eu, /* -28 */
	0x9e74d1b791e07e49u, /* -27 */
	0xc612062576589ddbu, /* -26 */
	0xf79687aed3eec552u, /* -25 */
	0x9abe14cd44753b53u, /* -24 */
	0xc16d9a0095928a28u, /* -23 */
	0xf1c90080baf72cb2u, /* -22 */
	0x971da05074da7befu, /* -21 */
	0xbce5086492111aebu, /* -20 */
	0xec1e4a7db69561a6u, /* -19 */
	0x9392ee8e921d5d08u, /* -18 */
	0xb877aa3236a4b44au, /* -17 */
	0xe69594bec44de15cu, /* -16 */
	0x901d7cf73ab0acdau, /* -15 */
	0xb424dc35095cd810u, /* -14 */
	0xe12e13424bb40e14u, /* -13 */
	0x8cbccc096f5088ccu, /* -12 */
	0xafebff0bcb24aaffu, /* -11 */
	0xdbe6fecebdedd5bfu, /* -10 */
	0x89705f4136b4a598u, /* -9 */
	0xabcc77118461cefdu, /* -8 */
	0xd6bf94d5e57a42bdu, /* -7 */
	0x8637bd05af6c69b6u, /* -6 */
	0xa7c5ac471b478424u, /* -5 */
	0xd1b71758e219652cu, /* -4 */
	0x83126e978d4fdf3cu, /* -3 */
	0xa3d70a3d70a3d70bu, /* -2 */
	0xcccccccccccccccdu, /* -1 */
	0x8000000000000001u, /* 0 */
	0xa000000000000001u, /* 1 */
	0xc800000000000001u, /* 2 */
	0xfa00000000000001u, /* 3 */
	0x9c40000000000001u, /* 4 */
	0xc350000000000001u, /* 5 */
	0xf424000000000001u, /* 6 */
	0x9896800000000001u, /* 7 */
	0xbebc200000000001u, /* 8 */
	0xee6b280000000001u, /* 9 */
	0x9502f90000000001u, /* 10 */
	0xba43b74000000001u, /* 11 */
	0xe8d4a51000000001u, /* 12 */
	0x9184e72a00000001u, /* 13 */
	0xb5e620f480000001u, /* 14 */
	0xe35fa931a0000001u, /* 15 */
	0x8e1bc9bf04000001u, /* 16 */
	0xb1a2bc2ec5000001u, /* 17 */
	0xde0b6b3a76400001u, /* 18 */
	0x8ac7230489e80001u, /* 19 */
	0xad78ebc5ac620001u, /* 20 */
	0xd8d726b7177a8001u, /* 21 */
	0x878678326eac9001u, /* 22 */
	0xa968163f0a57b401u, /* 23 */
	0xd3c21bcecceda101u, /* 24 */
	0x84595161401484a1u, /* 25 */
	0xa56fa5b99019a5c9u, /* 26 */
	0xcecb8f27f4200f3bu, /* 27 */
	0x813f3978f8940985u, /* 28 */
	0xa18f07d736b90be6u, /* 29 */
	0xc9f2c9cd04674edfu, /* 30 */
	0xfc6f7c4045812297u, /* 31 */
	0x9dc5ada82b70b59eu, /* 32 */
	0xc5371912364ce306u, /* 33 */
	0xf684df56c3e01bc7u, /* 34 */
	0x9a130b963a6c115du, /* 35 */
	0xc097ce7bc90715b4u, /* 36 */
	0xf0bdc21abb48db21u, /* 37 */
	0x96769950b50d88f5u, /* 38 */
	0xbc143fa4e250eb32u, /* 39 */
	0xeb194f8e1ae525feu, /* 40 */
	0x92efd1b8d0cf37bfu, /* 41 */
	0xb7abc627050305aeu, /* 42 */
	0xe596b7b0c643c71au, /* 43 */
	0x8f7e32ce7bea5c70u, /* 44 */
	0xb35dbf821ae4f38cu, /* 45 */
	0xe0352f62a19e306fu, /* 46 */
};

_Static_assert(sizeof pow10_tab / sizeof pow10_tab[0] ==
    POW10_JMAX - POW10_JMIN + 1, "pow10_tab covers POW10_JMIN..POW10_JMAX");
_Static_assert(sizeof pow10f_tab / sizeof pow10f_tab[0] ==
    POW10F_JMAX - POW10F_JMIN + 1, "pow10f_tab covers its range");

/* Two decimal digits at a time. */
const char ts_digit_pairs[201] =
    "0001020304050607080910111213141516171819"
    "2021222324252627282930313233343536373839"
    "4041424344454647484950515253545556575859"
    "6061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/*
 * The four decimal digits of 0..9999 as byte values 0..9, the first in
 * the low byte (digits.h: ts_put_uint), by the preprocessor.
 */
#define Q(a, b, c, d)	((uint32_t)(a) | (uint32_t)(b) << 8 | \
			    (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define Q1(a, b, c)	Q(a, b, c, 0), Q(a, b, c, 1), Q(a, b, c, 2), \
			Q(a, b, c, 3), Q(a, b, c, 4), Q(a, b, c, 5), \
			Q(a, b, c, 6), Q(a, b, c, 7), Q(a, b, c, 8), \
			Q(a, b, c, 9)
#define Q2(a, b)	Q1(a, b, 0), Q1(a, b, 1), Q1(a, b, 2), Q1(a, b, 3), \
			Q1(a, b, 4), Q1(a, b, 5), Q1(a, b, 6), Q1(a, b, 7), \
			Q1(a, b, 8), Q1(a, b, 9)
#define Q3(a)		Q2(a, 0), Q2(a, 1), Q2(a, 2), Q2(a, 3), Q2(a, 4), \
			Q2(a, 5), Q2(a, 6), Q2(a, 7), Q2(a, 8), Q2(a, 9)
const uint32_t ts_digit_quads[10000] = {
	Q3(0), Q3(1), Q3(2), Q3(3), Q3(4), Q3(5), Q3(6), Q3(7), Q3(8), Q3(9)
};
#undef Q
#undef Q1
#undef Q2
#undef Q3

static const uint64_t p10u[20] = {
	1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u,
	100000000u, 1000000000u, 10000000000u, 100000000000u,
	1000000000000u, 10000000000000u, 100000000000000u,
	1000000000000000u, 10000000000000000u, 100000000000000000u,
	1000000000000000000u, 10000000000000000000u,
};

/* Number of decimal digits of v, v >= 1. */
static inline int
ndigits(uint64_t v)
{
	/* 1233 / 4096 ~ log10(2): t is the digit count or one less. */
	int t = ((64 - clz64(v)) * 1233) >> 12;

	return t + (v >= p10u[t]);
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* Eight digits of v < 10^8, leading zeros too, as the bytes of a word:
 * the first in the low byte. */
static inline uint64_t
ascii8(uint32_t v)
{
	return ((uint64_t)ts_digit_quads[v / 10000] |
	    (uint64_t)ts_digit_quads[v % 10000] << 32) + 0x3030303030303030u;
}

/*
 * The n digits of v at p; n is exactly the digit count of v (1 for 0).
 * Eight bytes at a time: the first 1-8 digits, then groups of eight, so
 * that below 10^7 up to 8 - n bytes after them are written too (every
 * caller has room: its buffer holds TS_NUMBUF bytes).
 */
static inline void
put_digits(char *p, uint64_t v, int n)
{
	const int g = (int)((unsigned)(n - 1) / 8), h = n - 8 * g;
	uint64_t x, mid = 0, lo = 0;

	if (g > 0) {
		lo = v % 100000000;
		v /= 100000000;
		if (g > 1) {
			mid = v % 100000000;
			v /= 100000000;
		}
	}
	x = ascii8((uint32_t)v) >> (8 * (8 - h));
	memcpy(p, &x, 8);
	p += h;
	if (g > 1) {
		x = ascii8((uint32_t)mid);
		memcpy(p, &x, 8);
		p += 8;
	}
	if (g > 0) {
		x = ascii8((uint32_t)lo);
		memcpy(p, &x, 8);
	}
}
#else
/* Eight digits of v < 10^8 at p. */
static inline void
put8(char *p, uint32_t v)
{
	uint32_t a = v / 10000, b = v % 10000;

	memcpy(p, ts_digit_pairs + 2 * (a / 100), 2);
	memcpy(p + 2, ts_digit_pairs + 2 * (a % 100), 2);
	memcpy(p + 4, ts_digit_pairs + 2 * (b / 100), 2);
	memcpy(p + 6, ts_digit_pairs + 2 * (b % 100), 2);
}

/* The n digits of v at p; n is exactly the digit count of v (1 for 0).
 * (Up to 8 - n bytes after them may be written, as above.) */
static inline void
put_digits(char *p, uint64_t v, int n)
{
	uint32_t u;

	p += n;
	/* 32-bit arithmetic is cheaper: peel off eight digits at a time. */
	while (v >= 100000000) {
		p -= 8;
		put8(p, (uint32_t)(v % 100000000));
		v /= 100000000;
	}
	for (u = (uint32_t)v; u >= 100; u /= 100) {
		p -= 2;
		memcpy(p, ts_digit_pairs + 2 * (u % 100), 2);
	}
	if (u >= 10)
		memcpy(p - 2, ts_digit_pairs + 2 * u, 2);
	else
		p[-1] = (char)('0' + u);
}
#endif

/* The exponent x of "e+x"/"e-x" with at least mind digits. */
static inline char *
put_exp(char *p, int x, int mind)
{
	*p++ = 'e';
	if (x < 0) {
		*p++ = '-';
		x = -x;
	} else
		*p++ = '+';
	if (x >= 100) {
		*p++ = (char)('0' + x / 100);
		memcpy(p, ts_digit_pairs + 2 * (x % 100), 2);
		return p + 2;
	}
	if (x >= 10 || mind == 2) {
		memcpy(p, ts_digit_pairs + 2 * x, 2);
		return p + 2;
	}
	*p++ = (char)('0' + x);
	return p;
}

/*
 * Lay out d * 10^e (d without trailing zeros) at p, in buf: positional
 * for -4 <= x < 16 where x is the decimal exponent of the first digit,
 * else scientific.  Returns the length of buf's string.
 */
static inline __attribute__((always_inline)) int
layout(char *buf, char *p, uint64_t d, int e)
{
	int n = ndigits(d), x = e + n - 1;

	if (x < -4 || x >= 16) {
		put_digits(p + 1, d, n);
		p[0] = p[1];
		if (n > 1) {
			p[1] = '.';
			p += n + 1;
		} else
			p++;
		p = put_exp(p, x, 1);
	} else if (x < 0) {
		memcpy(p, "0.000", 5);		/* "0." and -x - 1 zeros */
		p += 1 - x;
		put_digits(p, d, n);
		p += n;
	} else if (n <= x + 1) {
		put_digits(p, d, n);		/* an integer: pad with zeros */
		memset(p + n, '0', (size_t)(x + 1 - n));
		p += x + 1;
	} else {
		put_digits(p + 1, d, n);	/* then move the point in */
		memmove(p, p + 1, (size_t)x + 1);
		p[x + 1] = '.';
		p += n + 1;
	}
	*p = '\0';
	return (int)(p - buf);
}

/* inf, nan and zeros, common to both widths.  Returns -1 otherwise. */
static int
fmt_special(char *buf, int neg, int inf, int nan, int zero)
{
	const char *s;

	if (nan)
		s = "nan";		/* never "-nan" */
	else if (inf)
		s = neg ? "-inf" : "inf";
	else if (zero)
		s = neg ? "-0" : "0";
	else
		return -1;
	strcpy(buf, s);
	return (int)strlen(s);
}

/*
 * Round to odd: (g * cp) / 2^128 with bit 0 set if inexact.  The product
 * is only computed down to 2^64; Schubfach's analysis shows the ignored
 * low bits and the error of g can neither change the integer part nor
 * hide a nonzero fraction.
 */
static inline uint64_t
rop64(const uint64_t *g, uint64_t cp)
{
	uint64_t x1, x0, y1, y0;

	mul64(g[1], cp, &x1, &x0);
	mul64(g[0], cp, &y1, &y0);
	y0 += x1;
	y1 += y0 < x1;
	return y1 | (y0 != 0);
}

/* The same for binary32: (g * cp) / 2^64 from a 96-bit product. */
static inline uint32_t
rop32(uint64_t g, uint32_t cp)
{
	uint64_t lo = (g & 0xFFFFFFFFu) * cp, hi = (g >> 32) * cp;
	uint64_t y = hi + (lo >> 32);

	return (uint32_t)(y >> 32) | ((uint32_t)y != 0);
}

/*
 * Schubfach's choice among the decimals in the rounding interval, given
 * vb ~ 4v / 10^k and the interval [lower, upper] in the same units
 * (already narrowed when its ends are excluded).  At most one multiple
 * of 10^(k + 1) fits: if one does it is the shortest.  Otherwise one or
 * both of the multiples of 10^k around v do; take the nearer (ties to
 * even digit).  Sets *dp, returns the power of ten.
 */
static inline int
choose(uint64_t vb, uint64_t lower, uint64_t upper, int k, uint64_t *dp)
{
	uint64_t s = vb >> 2, mid;
	int uin, win;

	if (s >= 10) {
		uint64_t sp = s / 10;

		uin = lower <= 40 * sp;
		win = 40 * sp + 40 <= upper;
		if (uin != win) {
			*dp = sp + (uint64_t)win;
			return k + 1;
		}
	}
	uin = lower <= 4 * s;
	win = 4 * s + 4 <= upper;
	if (uin != win) {
		*dp = s + (uint64_t)win;
		return k;
	}
	mid = 4 * s + 2;
	*dp = s + (vb > mid || (vb == mid && (s & 1)));
	return k;
}

/* Strip trailing zeros from *dp, returning the adjusted exponent. */
static inline int
strip(uint64_t *dp, int e)
{
	uint64_t d = *dp;

	while (d % 10 == 0) {
		d /= 10;
		e++;
	}
	*dp = d;
	return e;
}

int
ts_fmt_double(char *buf, double v)
{
	uint64_t bits, f, c, cb, d, vb, vbl, vbr;
	const uint64_t *g;
	int be, neg, q, k, h, even, irr, e, n;
	char *p = buf;

	memcpy(&bits, &v, sizeof bits);
	neg = (int)(bits >> 63);
	be = (int)(bits >> 52) & 0x7FF;
	f = bits & (((uint64_t)1 << 52) - 1);
	n = fmt_special(buf, neg, be == 0x7FF && f == 0, be == 0x7FF && f,
	    be == 0 && f == 0);
	if (n >= 0)
		return n;
	if (neg)
		*p++ = '-';
	if (be) {
		c = f | (uint64_t)1 << 52;
		q = be - 1075;
		/* Integers below 2^53 are their own shortest digits. */
		if (q <= 0 && q > -53 && (c & (((uint64_t)1 << -q) - 1)) == 0) {
			d = c >> -q;
			e = strip(&d, 0);
			return layout(buf, p, d, e);
		}
	} else {
		c = f;
		q = -1074;
	}
	/*
	 * v = c 2^q.  Its rounding interval is (c -+ 1/2) 2^q, except at a
	 * power of two where the lower neighbour is closer: (c - 1/4) 2^q.
	 * The ends belong to it when c is even (round half to even).
	 */
	even = !(c & 1);
	irr = f == 0 && be > 1;
	/* 10^k <= the interval's width < 10^(k + 1) */
	k = irr ? flog10_3q_pow2(q) : flog10_pow2(q);
	/* the shift that makes g * (cb << h) / 2^128 = cb 2^q 10^-k */
	h = q + flog2_pow10(-k) + 1;
	g = pow10_tab[-k - POW10_JMIN];
	cb = c << 2;
	vb = rop64(g, cb << h);
	vbl = rop64(g, (cb - 2 + (uint64_t)irr) << h);
	vbr = rop64(g, (cb + 2) << h);
	e = choose(vb, vbl + !even, vbr - !even, k, &d);
	e = strip(&d, e);
	return layout(buf, p, d, e);
}

int
ts_fmt_float(char *buf, float v)
{
	uint32_t bits, f, c, cb, vb, vbl, vbr;
	uint64_t g, d;
	int be, neg, q, k, h, even, irr, e, n;
	char *p = buf;

	memcpy(&bits, &v, sizeof bits);
	neg = (int)(bits >> 31);
	be = (int)(bits >> 23) & 0xFF;
	f = bits & ((1u << 23) - 1);
	n = fmt_special(buf, neg, be == 0xFF && f == 0, be == 0xFF && f,
	    be == 0 && f == 0);
	if (n >= 0)
		return n;
	if (neg)
		*p++ = '-';
	if (be) {
		c = f | 1u << 23;
		q = be - 150;
		if (q <= 0 && q > -24 && (c & ((1u << -q) - 1)) == 0) {
			d = c >> -q;
			e = strip(&d, 0);
			return layout(buf, p, d, e);
		}
	} else {
		c = f;
		q = -149;
	}
	/* As in ts_fmt_double(), with a 64-bit g. */
	even = !(c & 1);
	irr = f == 0 && be > 1;
	k = irr ? flog10_3q_pow2(q) : flog10_pow2(q);
	h = q + flog2_pow10(-k) + 1;
	g = pow10f_tab[-k - POW10F_JMIN];
	cb = c << 2;
	vb = rop32(g, cb << h);
	vbl = rop32(g, (cb - 2 + (uint32_t)irr) << h);
	vbr = rop32(g, (cb + 2) << h);
	e = choose(vb, (uint64_t)vbl + !even, (uint64_t)vbr - !even, k, &d);
	e = strip(&d, e);
	return layout(buf, p, d, e);
}

/*
 * printf("%.16e") through the C library, rewritten with a '.' whatever
 * the locale's radix character.  Only for the undecidable cases.
 */
static int
e16_libc(char *buf, double v)
{
	char tmp[64], *p = buf;
	const char *s = tmp;

	snprintf(tmp, sizeof tmp, "%.16e", v);
	if (*s == '-')
		*p++ = *s++;
	*p++ = *s++;
	*p++ = '.';
	while (*s != 'e')
		if ((unsigned char)(*s++ - '0') < 10)
			*p++ = s[-1];
	while ((*p++ = *s++) != '\0')
		;
	return (int)(p - 1 - buf);
}

/* 5^j, j <= 22: the odd factors of 10^-j that can divide c < 2^53. */
static const uint64_t p5u[23] = {
	1u, 5u, 25u, 125u, 625u, 3125u, 15625u, 78125u, 390625u, 1953125u,
	9765625u, 48828125u, 244140625u, 1220703125u, 6103515625u,
	30517578125u, 152587890625u, 762939453125u, 3814697265625u,
	19073486328125u, 95367431640625u, 476837158203125u,
	2384185791015625u,
};

/* Is c 2^q 10^j exactly half way between two integers? */
static int
halfway(uint64_t c, int q, int j)
{
	int t = 0;

	/* 2 c 2^q 10^j is an odd integer: the powers of two cancel... */
	while (!(c & 1)) {
		c >>= 1;
		t++;
	}
	if (t + q + j + 1 != 0)
		return 0;
	/* ...and so do the powers of five when j < 0. */
	return j >= 0 || (-j <= 22 && c % p5u[-j] == 0);
}

int
ts_fmt_double_e16(char *buf, double v)
{
	uint64_t bits, f, c, cn, hi, mid, lo, t, n, fr, half;
	const uint64_t *g;
	int be, neg, q, lz, e2, x, j, sh;
	char *p = buf;

	memcpy(&bits, &v, sizeof bits);
	neg = (int)(bits >> 63);
	be = (int)(bits >> 52) & 0x7FF;
	f = bits & (((uint64_t)1 << 52) - 1);
	if (be == 0x7FF)
		return fmt_special(buf, neg, f == 0, f != 0, 0);
	if (neg)
		*p++ = '-';
	if (be == 0 && f == 0) {
		memcpy(p, "0.0000000000000000e+00", 23);
		return (int)(p - buf) + 22;
	}
	c = be ? f | (uint64_t)1 << 52 : f;
	q = be ? be - 1075 : -1074;
	lz = clz64(c);
	cn = c << lz;
	e2 = q + 63 - lz;		/* 2^e2 <= |v| < 2^(e2 + 1) */
	x = flog10_pow2(e2);		/* the decimal exponent, or one less */
	for (;;) {
		/*
		 * n = |v| 10^j with j = 16 - x.  P = cn * g overestimates
		 * cn * 10^j * 2^s by less than 2^64 (in units of P); the
		 * integer part of |v| 10^j is P >> (128 + sh).
		 */
		j = 16 - x;
		g = pow10_tab[j - POW10_JMIN];
		mul64(cn, g[0], &hi, &mid);
		mul64(cn, g[1], &t, &lo);
		mid += t;
		hi += mid < t;
		sh = 62 - e2 - flog2_pow10(j);
		n = hi >> sh;
		if (n < p10u[17])
			break;
		x++;			/* at most once */
	}
	/* Round the fraction fr:mid:lo, known to within 2^64 from below. */
	half = (uint64_t)1 << (sh - 1);
	fr = hi & ((half << 1) - 1);
	if (fr > half || (fr == half && mid != 0))
		n++;
	else if (fr == half) {
		if (!halfway(c, q, j))
			return e16_libc(buf, v);
		n += n & 1;		/* an exact tie: to even */
	}
	if (n == p10u[17]) {
		n = p10u[16];
		x++;
	}
	put_digits(p + 1, n, 17);
	p[0] = p[1];
	p[1] = '.';
	p = put_exp(p + 18, x, 2);
	*p = '\0';
	return (int)(p - buf);
}

int
ts_fmt_u64(char *buf, uint64_t v)
{
	int n = v ? ndigits(v) : 1;

	put_digits(buf, v, n);
	buf[n] = '\0';
	return n;
}

int
ts_fmt_u64_width(char *buf, uint64_t v, int width)
{
	int n = v ? ndigits(v) : 1;

	if (n >= width)
		return ts_fmt_u64(buf, v);
	memset(buf, '0', (size_t)(width - n));
	if (width + 8 - n <= TS_NUMBUF)
		put_digits(buf + width - n, v, n);
	else {
		/* What put_digits may write past the digits could fall
		 * outside buf. */
		char t[TS_NUMBUF];

		put_digits(t, v, n);
		memcpy(buf + width - n, t, (size_t)n);
	}
	buf[width] = '\0';
	return width;
}

int
ts_fmt_i64(char *buf, int64_t v)
{
	if (v < 0) {
		buf[0] = '-';
		/* Negate in unsigned arithmetic: INT64_MIN has no opposite. */
		return 1 + ts_fmt_u64(buf + 1, (uint64_t)0 - (uint64_t)v);
	}
	return ts_fmt_u64(buf, (uint64_t)v);
}
