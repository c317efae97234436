// The portal works without JavaScript; this only adds a Copy button next
// to a new token's value.
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    var status = document.querySelector(".copy-status");
    if (!field || !navigator.clipboard) {
      return;
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(field.value).then(function () {
        if (status) { status.textContent = "Copied to the clipboard."; }
      }, function () {
        field.select();
        if (status) { status.textContent = "Copying was not allowed: the value is selected, copy it with your keyboard."; }
      });
    });
  });
});
