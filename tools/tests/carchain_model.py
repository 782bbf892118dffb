"""A reference model of CarChain written from contracts/README.md (RULES) alone: plain dictionaries,
string equality, no hashing. The randomized test drives it and the bytecode with the same calls and
requires the same outcome (success, or revert and reason), the same events and the same views.
The Swift CarChainModel follows the same rules."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_PLATE, MAX_USER_ID = 31, 128  # longest plate / user id that can be registered (bytes)
ARG_PLATE, ARG_USER_ID = 64, 256  # longest strings the ABI decoder accepts (bytes)
MAX_CREDIT = 2**191 - 1
MINIMUM_RENT_CREDIT = 1
ZERO = "0x" + "00" * 20


class Refused(Exception):
    """A revert; reason None means empty revert data (the ABI decoder's refusal)."""

    def __init__(self, reason: str | None):
        super().__init__(reason)
        self.reason = reason


@dataclass
class User:
    credit: int = 0
    car: str | None = None
    account: str | None = None


@dataclass
class Model:
    manager: str
    users: dict[str, User] = field(default_factory=dict)
    cars: dict[str, str | None] = field(default_factory=dict)  # plate -> renter
    bound: dict[str, str] = field(default_factory=dict)  # account -> user id

    # -- helpers ------------------------------------------------------------------------------
    @staticmethod
    def _decode(*strings: tuple[str, int]) -> None:
        for s, bound in strings:
            if len(s.encode()) > bound:
                raise Refused(None)

    def _authorize(self, sender: str, user_id: str) -> None:
        if sender == self.manager:
            return
        user = self.users.get(user_id)
        if user is None or user.account != sender:
            raise Refused("not user's account or manager")

    # -- transactions (return the events) -------------------------------------------------------
    def registerNewUser(self, sender: str, user_id: str) -> list:
        self._decode((user_id, ARG_USER_ID))
        n = len(user_id.encode())
        if n == 0:
            raise Refused("empty user id")
        if n > MAX_USER_ID:
            raise Refused("user id too long")
        if user_id in self.users:
            raise Refused("user already registered")
        account = None
        if sender != self.manager:
            if sender in self.bound:
                raise Refused("account already has a user id")
            account = sender
            self.bound[sender] = user_id
        self.users[user_id] = User(account=account)
        return [("UserRegistered", {"userId": user_id, "account": account or ZERO})]

    def registerNewCar(self, sender: str, plate: str) -> list:
        self._decode((plate, ARG_PLATE))
        if sender != self.manager:
            raise Refused("caller is not the manager")
        n = len(plate.encode())
        if n == 0:
            raise Refused("empty plate")
        if n > MAX_PLATE:
            raise Refused("plate too long")
        if plate == "-":
            raise Refused('plate "-" is reserved')
        if plate in self.cars:
            raise Refused("car already registered")
        self.cars[plate] = None
        return [("CarRegistered", {"plate": plate})]

    def addCredit(self, sender: str, user_id: str, amount: int) -> list:
        self._decode((user_id, ARG_USER_ID))
        self._authorize(sender, user_id)
        user = self.users.get(user_id)
        if user is None:
            raise Refused("user not registered")
        if user.credit + amount > MAX_CREDIT:
            raise Refused("credit overflow")
        user.credit += amount
        return [("CreditAdded", {"userId": user_id, "amount": amount, "newBalance": user.credit})]

    def rentCar(self, sender: str, plate: str, user_id: str) -> list:
        self._decode((plate, ARG_PLATE), (user_id, ARG_USER_ID))
        self._authorize(sender, user_id)
        if plate not in self.cars:
            raise Refused("car not registered")
        if self.cars[plate] is not None:
            raise Refused("car already rented")
        user = self.users.get(user_id)
        if user is None:
            raise Refused("user not registered")
        if user.credit < MINIMUM_RENT_CREDIT:
            raise Refused("insufficient credit")
        if user.car is not None:
            raise Refused("user already renting a car")
        self.cars[plate] = user_id
        user.car = plate
        user.credit -= MINIMUM_RENT_CREDIT
        return [("CarRented", {"plate": plate, "userId": user_id})]

    def returnCar(self, sender: str, plate: str, user_id: str) -> list:
        self._decode((plate, ARG_PLATE), (user_id, ARG_USER_ID))
        self._authorize(sender, user_id)
        if plate not in self.cars:
            raise Refused("car not registered")
        renter = self.cars[plate]
        if renter is None:
            raise Refused("car not rented")
        if user_id not in self.users:
            raise Refused("user not registered")
        if renter != user_id:
            raise Refused("car rented by another user")
        self.cars[plate] = None
        self.users[user_id].car = None
        return [("CarReturned", {"plate": plate, "userId": user_id})]

    # -- views ----------------------------------------------------------------------------------
    def views(self, user_ids: list[str], plates: list[str]) -> dict:
        rented = sum(1 for r in self.cars.values() if r is not None)
        out = {
            "registeredUsers": len(self.users),
            "registeredCars": len(self.cars),
            "rentedCars": rented,
            "availableCars": len(self.cars) - rented,
        }
        for uid in user_ids:
            u = self.users.get(uid)
            out[("getUserCredit", uid)] = u.credit if u else 0
            out[("getUserCar", uid)] = (u.car or "-") if u else ""
            out[("isUserRegistered", uid)] = u is not None
            out[("getUserAccount", uid)] = (u.account or ZERO) if u else ZERO
        for plate in plates:
            out[("getCar", plate)] = (plate in self.cars, self.cars.get(plate) or "")
        return out
