# pragma version 0.4.3
"""
@title CarChain
@notice Car rental bookkeeping. The deployer is the manager: it registers cars and may act for any
        user. A user id is registered either by its own account (which it is then bound to, one id
        per account) or by the manager (then it has no account and only the manager acts for it).
        A registered user with credit rents one car at a time for one credit and returns it later.
@dev    The ABI keeps every function of the seed contract (solc 0.4.25) with the same signature, so
        the selectors are unchanged. contracts/README.md gives the checks of every function in
        order, the storage layout and the gas comparison with the seed.
"""

# ------------------------------------------------------------------------------------------------
# Events: one per state change, the plate and user id strings in the data. Nothing is indexed (the
# cheapest layout); a client rebuilds the fleet and each user's history from the data.
# ------------------------------------------------------------------------------------------------

event UserRegistered:
    userId: String[ARG_USER_ID]
    account: address  # the bound account; zero when the manager registered the id

event CarRegistered:
    plate: String[ARG_PLATE]

event CarRented:
    plate: String[ARG_PLATE]
    userId: String[ARG_USER_ID]

event CarReturned:
    plate: String[ARG_PLATE]
    userId: String[ARG_USER_ID]

event CreditAdded:
    userId: String[ARG_USER_ID]
    amount: uint256
    newBalance: uint256

# ------------------------------------------------------------------------------------------------
# Limits
# ------------------------------------------------------------------------------------------------

# Longest plate and user id that can be registered (bytes of UTF-8).
MAX_PLATE: constant(uint256) = 31
MAX_USER_ID: constant(uint256) = 128
# Longest strings the ABI decoder accepts. Up to these an over-long plate or id is refused with a
# reason; a longer argument is refused by the decoder itself (revert with empty data).
ARG_PLATE: constant(uint256) = 64
ARG_USER_ID: constant(uint256) = 256

minimumRentCredit: public(constant(uint256)) = 1
MAX_CREDIT: constant(uint256) = 2**191 - 1

# ------------------------------------------------------------------------------------------------
# Revert reasons. Each is packed into one word (text left-aligned, length in the last byte) and
# encoded as Error(string) by _fail, which keeps every check down to a PUSH32 and a call.
# tools/tests checks that each constant decodes to the text in its comment.
# ------------------------------------------------------------------------------------------------

E_EMPTY_USER_ID: constant(bytes32) = 0x656d70747920757365722069640000000000000000000000000000000000000d  # "empty user id"
E_USER_ID_TOO_LONG: constant(bytes32) = 0x7573657220696420746f6f206c6f6e6700000000000000000000000000000010  # "user id too long"
E_USER_ALREADY_REGISTERED: constant(bytes32) = 0x7573657220616c72656164792072656769737465726564000000000000000017  # "user already registered"
E_USER_ID_TAG_COLLISION: constant(bytes32) = 0x757365722069642074616720636f6c6c6973696f6e0000000000000000000015  # "user id tag collision"
E_ACCOUNT_HAS_ID: constant(bytes32) = 0x6163636f756e7420616c7265616479206861732061207573657220696400001d  # "account already has a user id"
E_NOT_MANAGER: constant(bytes32) = 0x63616c6c6572206973206e6f7420746865206d616e6167657200000000000019  # "caller is not the manager"
E_EMPTY_PLATE: constant(bytes32) = 0x656d70747920706c61746500000000000000000000000000000000000000000b  # "empty plate"
E_PLATE_TOO_LONG: constant(bytes32) = 0x706c61746520746f6f206c6f6e6700000000000000000000000000000000000e  # "plate too long"
E_RESERVED_PLATE: constant(bytes32) = 0x706c61746520222d222069732072657365727665640000000000000000000015  # "plate \"-\" is reserved"
E_CAR_ALREADY_REGISTERED: constant(bytes32) = 0x63617220616c7265616479207265676973746572656400000000000000000016  # "car already registered"
E_NOT_AUTHORIZED: constant(bytes32) = 0x6e6f7420757365722773206163636f756e74206f72206d616e6167657200001d  # "not user's account or manager"
E_USER_NOT_REGISTERED: constant(bytes32) = 0x75736572206e6f74207265676973746572656400000000000000000000000013  # "user not registered"
E_CREDIT_OVERFLOW: constant(bytes32) = 0x637265646974206f766572666c6f77000000000000000000000000000000000f  # "credit overflow"
E_CAR_NOT_REGISTERED: constant(bytes32) = 0x636172206e6f7420726567697374657265640000000000000000000000000012  # "car not registered"
E_CAR_ALREADY_RENTED: constant(bytes32) = 0x63617220616c72656164792072656e7465640000000000000000000000000012  # "car already rented"
E_INSUFFICIENT_CREDIT: constant(bytes32) = 0x696e73756666696369656e742063726564697400000000000000000000000013  # "insufficient credit"
E_USER_ALREADY_RENTING: constant(bytes32) = 0x7573657220616c72656164792072656e74696e6720612063617200000000001a  # "user already renting a car"
E_CAR_NOT_RENTED: constant(bytes32) = 0x636172206e6f742072656e74656400000000000000000000000000000000000e  # "car not rented"
E_UNKNOWN_FUNCTION: constant(bytes32) = 0x756e6b6e6f776e2066756e6374696f6e00000000000000000000000000000010  # "unknown function"
E_RENTED_BY_ANOTHER: constant(bytes32) = 0x6361722072656e74656420627920616e6f74686572207573657200000000001a  # "car rented by another user"

# ------------------------------------------------------------------------------------------------
# Storage (layout and reasoning in contracts/README.md)
# ------------------------------------------------------------------------------------------------

manager: public(immutable(address))

LOW64: constant(uint256) = 2**64 - 1
NO_CAR_KEY: constant(bytes32) = 0xd3b8281179950f98149eefdb158d0e1acb56f56e8e343aa9fefafa7e36959561  # keccak256("-")
USER_FLAGS: constant(uint256) = 2**65 - 1  # registered bit and last-car index of a user word
CARS_UNIT: constant(uint256) = 1 << 64
RENTED_UNIT: constant(uint256) = 1 << 128
COUNTERS_SENTINEL: constant(uint256) = 1 << 255

# bits 0..63 registeredUsers, 64..127 registeredCars, 128..191 rentedCars; bit 255 is set at
# deployment so the word is never zero and every update is a non-zero to non-zero store.
# availableCars is derived (registeredCars - rentedCars), not stored.
counters: uint256

# keccak256(plate) -> 0 when not registered, else renter << 64 | index, where index (1-based
# registration number) is never 0 and renter is the renter's keccak256(userId) >> 64 (its "tag"),
# or 0 when the car is free.
cars: HashMap[bytes32, uint256]

# keccak256(userId) -> 0 when not registered, else credit << 65 | last << 1 | 1, where last is the
# index of the car the user rented most recently (0: none). That rental is current only while that
# car's renter is this user's tag: returnCar leaves the pointer in place instead of clearing it.
users: HashMap[bytes32, uint256]

# car index -> plate packed into one word: bytes left-aligned, length in the low byte.
plates: HashMap[uint256, uint256]

# tag -> user id. Registration refuses an id whose tag is zero or already taken, so a tag names
# exactly one registered user.
userIds: HashMap[uint256, String[ARG_USER_ID]]

# keccak256(userId) -> account bound to it (zero when the manager registered the id).
accounts: HashMap[bytes32, address]
# account -> tag of the id bound to it (zero: none).
accountTags: HashMap[address, uint256]


@deploy
def __init__():
    manager = msg.sender
    self.counters = COUNTERS_SENTINEL


@internal
@pure
def _fail(reason: bytes32):
    # Error(string) with a string of at most 31 bytes: offset, length, one word of text.
    word: uint256 = convert(reason, uint256)
    raw_revert(abi_encode(convert(32, uint256), word & 255, (word >> 8) << 8, method_id=method_id("Error(string)")))


@internal
@view
def _plateOf(index: uint256) -> Bytes[32]:
    word: uint256 = self.plates[index]
    return slice(convert(word, bytes32), 0, word & 255)


@external
def __default__():
    # A call that names no function of this contract (the seed reverted too, without a reason).
    self._fail(E_UNKNOWN_FUNCTION)


# ------------------------------------------------------------------------------------------------
# Registration
# ------------------------------------------------------------------------------------------------

@external
def registerNewUser(_userId: String[ARG_USER_ID]):
    n: uint256 = len(_userId)
    if n == 0:
        self._fail(E_EMPTY_USER_ID)
    if n > MAX_USER_ID:
        self._fail(E_USER_ID_TOO_LONG)
    key: bytes32 = keccak256(_userId)
    if self.users[key] != 0:
        self._fail(E_USER_ALREADY_REGISTERED)
    tag: uint256 = convert(key, uint256) >> 64
    if tag == 0 or len(self.userIds[tag]) != 0:
        self._fail(E_USER_ID_TAG_COLLISION)
    account: address = empty(address)
    if msg.sender != manager:
        if self.accountTags[msg.sender] != 0:
            self._fail(E_ACCOUNT_HAS_ID)
        account = msg.sender
        self.accounts[key] = msg.sender
        self.accountTags[msg.sender] = tag
    self.users[key] = 1
    self.userIds[tag] = _userId
    self.counters += 1
    log UserRegistered(userId=_userId, account=account)


@external
def registerNewCar(_plate: String[ARG_PLATE]):
    if msg.sender != manager:
        self._fail(E_NOT_MANAGER)
    n: uint256 = len(_plate)
    if n == 0:
        self._fail(E_EMPTY_PLATE)
    if n > MAX_PLATE:
        self._fail(E_PLATE_TOO_LONG)
    key: bytes32 = keccak256(_plate)
    # "-" is what getUserCar returns for "no car" (the seed's marker), so it cannot name a car.
    if key == NO_CAR_KEY:
        self._fail(E_RESERVED_PLATE)
    if self.cars[key] != 0:
        self._fail(E_CAR_ALREADY_REGISTERED)
    c: uint256 = self.counters + CARS_UNIT
    self.counters = c
    index: uint256 = (c >> 64) & LOW64
    self.cars[key] = index
    word: bytes32 = extract32(concat(convert(_plate, Bytes[ARG_PLATE]), empty(bytes32)), 0)
    self.plates[index] = convert(word, uint256) | n
    log CarRegistered(plate=_plate)


# ------------------------------------------------------------------------------------------------
# Credit, renting, returning
# ------------------------------------------------------------------------------------------------

@external
def addCredit(_userId: String[ARG_USER_ID], _credit: uint256):
    key: bytes32 = keccak256(_userId)
    if msg.sender != manager:
        if self.accounts[key] != msg.sender:
            self._fail(E_NOT_AUTHORIZED)
    u: uint256 = self.users[key]
    if u == 0:
        self._fail(E_USER_NOT_REGISTERED)
    balance: uint256 = u >> 65
    if _credit > MAX_CREDIT - balance:
        self._fail(E_CREDIT_OVERFLOW)
    balance += _credit
    self.users[key] = balance << 65 | u & USER_FLAGS
    log CreditAdded(userId=_userId, amount=_credit, newBalance=balance)


@external
def rentCar(_plate: String[ARG_PLATE], _userId: String[ARG_USER_ID]):
    ukey: bytes32 = keccak256(_userId)
    if msg.sender != manager:
        if self.accounts[ukey] != msg.sender:
            self._fail(E_NOT_AUTHORIZED)
    ckey: bytes32 = keccak256(_plate)
    car: uint256 = self.cars[ckey]
    if car == 0:
        self._fail(E_CAR_NOT_REGISTERED)
    if car > LOW64:
        self._fail(E_CAR_ALREADY_RENTED)
    # From here `car` is just this car's index (its renter is 0).
    u: uint256 = self.users[ukey]
    if u == 0:
        self._fail(E_USER_NOT_REGISTERED)
    credit: uint256 = u >> 65
    if credit < minimumRentCredit:
        self._fail(E_INSUFFICIENT_CREDIT)
    tag: uint256 = convert(ukey, uint256) >> 64
    # The user's last car is rented by the user still, unless it is this (free) car or its renter
    # has changed since.
    last: uint256 = (u >> 1) & LOW64
    if last != 0 and last != car:
        if self.cars[keccak256(self._plateOf(last))] >> 64 == tag:
            self._fail(E_USER_ALREADY_RENTING)
    self.cars[ckey] = tag << 64 | car
    self.users[ukey] = (credit - minimumRentCredit) << 65 | car << 1 | 1
    self.counters += RENTED_UNIT
    log CarRented(plate=_plate, userId=_userId)


@external
def returnCar(_plate: String[ARG_PLATE], _userId: String[ARG_USER_ID]):
    ukey: bytes32 = keccak256(_userId)
    if msg.sender != manager:
        if self.accounts[ukey] != msg.sender:
            self._fail(E_NOT_AUTHORIZED)
    ckey: bytes32 = keccak256(_plate)
    car: uint256 = self.cars[ckey]
    if car == 0:
        self._fail(E_CAR_NOT_REGISTERED)
    renter: uint256 = car >> 64
    if renter == 0:
        self._fail(E_CAR_NOT_RENTED)
    # Only a registered user can be a renter, so a matching tag also proves the user registered;
    # the user's word is read only to tell the two refusals apart.
    if renter != convert(ukey, uint256) >> 64:
        if self.users[ukey] == 0:
            self._fail(E_USER_NOT_REGISTERED)
        self._fail(E_RENTED_BY_ANOTHER)
    self.cars[ckey] = car & LOW64
    self.counters -= RENTED_UNIT
    log CarReturned(plate=_plate, userId=_userId)


# ------------------------------------------------------------------------------------------------
# Views
# ------------------------------------------------------------------------------------------------

@external
@view
def getUserCredit(_userId: String[ARG_USER_ID]) -> uint256:
    return self.users[keccak256(_userId)] >> 65


@external
@view
def getUserCar(_userId: String[ARG_USER_ID]) -> String[32]:
    # As the seed: "" for an unknown id, "-" for a registered user who rents nothing.
    key: bytes32 = keccak256(_userId)
    u: uint256 = self.users[key]
    if u == 0:
        return ""
    last: uint256 = (u >> 1) & LOW64
    if last != 0:
        plate: Bytes[32] = self._plateOf(last)
        if self.cars[keccak256(plate)] >> 64 == convert(key, uint256) >> 64:
            return convert(plate, String[32])
    return "-"


@external
@view
def getCar(_plate: String[ARG_PLATE]) -> (bool, String[ARG_USER_ID]):
    car: uint256 = self.cars[keccak256(_plate)]
    # A free car has renter 0, and userIds[0] is always empty.
    return car != 0, self.userIds[car >> 64]


@external
@view
def isUserRegistered(_userId: String[ARG_USER_ID]) -> bool:
    return self.users[keccak256(_userId)] != 0


@external
@view
def getUserAccount(_userId: String[ARG_USER_ID]) -> address:
    return self.accounts[keccak256(_userId)]


@external
@view
def registeredUsers() -> uint256:
    return self.counters & LOW64


@external
@view
def registeredCars() -> uint256:
    return (self.counters >> 64) & LOW64


@external
@view
def rentedCars() -> uint256:
    return (self.counters >> 128) & LOW64


@external
@view
def availableCars() -> uint256:
    c: uint256 = self.counters
    return ((c >> 64) & LOW64) - ((c >> 128) & LOW64)
