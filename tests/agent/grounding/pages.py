"""Static HTML pages for the grounding tests."""

FORM = """
<h1>New Owner</h1>
<form id="add-owner-form">
  <div class="row"><label for="firstName">First Name</label><input id="firstName" name="firstName"></div>
  <div class="row"><label>Last name <input name="lastName"></label></div>
  <div class="row"><input aria-label="City" name="city-x"></div>
  <div class="row"><input placeholder="Telephone number"></div>
  <div class="row"><label for="pt">Type</label>
    <select id="pt" name="type"><option>bird</option><option selected>cat</option><option>dog</option></select></div>
  <div class="row"><label><input type="checkbox" name="newsletter"> Subscribe to newsletter</label></div>
  <button type="submit">Add Owner</button>
</form>
"""

OWNERS = """
<nav class="navbar">
  <a href="/">Home</a> <a href="/owners/find">Find owners</a> <a href="/vets">Veterinarians</a>
</nav>
<h2>Owners</h2>
<table id="owners">
  <thead><tr><th>Name</th><th>City</th><th>Actions</th></tr></thead>
  <tbody>
    <tr><td><a href="/owners/1">George Franklin</a></td><td>Madison</td><td><a href="/owners/1/edit">Edit</a></td></tr>
    <tr><td><a href="/owners/2">Betty Davis</a></td><td>Sun Prairie</td><td><a href="/owners/2/edit">Edit</a></td></tr>
  </tbody>
</table>
<a class="btn" href="/owners/new">Add Owner</a>
"""

DETAILS = """
<h2>Owner Information</h2>
<table class="table">
  <tr><th>Name</th><td><b>George Franklin</b></td></tr>
  <tr><th>Address</th><td>110 W. Liberty St.</td></tr>
  <tr><th>City</th><td>Madison</td></tr>
  <tr><th>Telephone</th><td>6085551023</td></tr>
</table>
<a href="/owners/1/edit">Edit Owner</a>
"""

HIDDEN = """
<div style="display:none"><button>Gone display</button></div>
<button style="visibility:hidden">Gone visibility</button>
<button style="opacity:0">Gone opacity</button>
<div aria-hidden="true"><button>Gone aria</button></div>
<button hidden>Gone hidden attr</button>
<div inert><button>Gone inert</button></div>
<button style="width:0;height:0;padding:0;border:0;overflow:hidden">Gone zero</button>
<input type="hidden" name="csrf" value="x">
<div style="visibility:hidden"><span style="visibility:visible">Shown child</span></div>
<button>Visible</button>
"""

CHAIN = """
<div id="w1"><div id="w2"><div id="w3"><section><span>Deep text</span></section></div></div></div>
<div><button>One</button><button>Two</button></div>
"""

IFRAME = """
<h1>Checkout</h1>
<div style="padding: 40px">
<iframe id="payment" style="border: 5px solid black; width: 400px; height: 200px" srcdoc="
  <form><label for=cc>Card number</label><input id=cc name=cc><button type=button>Pay</button></form>"></iframe>
</div>
<iframe name="other" srcdoc="<button>Inner</button>"></iframe>
<iframe src="data:text/html,<button>Cross origin</button>"></iframe>
"""

SHADOW = """
<h1>Shadow</h1>
<my-toolbar></my-toolbar>
<script>
customElements.define('my-toolbar', class extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({mode: 'open'}).innerHTML = '<div><button>Save draft</button><button>Publish</button></div>';
  }
});
</script>
"""

TIES = """
<div style="display:flex; flex-direction: column-reverse">
  <button id="b1">Save</button>
  <button id="b2">Save</button>
</div>
"""

LOCATORS = """
<form>
  <input id="email" name="email" aria-label="Email">
  <input id="1bad.id" aria-label="Odd">
  <button id=":r1q:">Apply</button>
  <button id="radix-:r2:-trigger-more" aria-label="More actions">...</button>
  <input id="ember123" aria-label="Ember field">
  <input id="mui-12345" aria-label="Assignee">
  <input id="field-8f3a9c2e" aria-label="Hex field">
  <button id="react-aria8254751381-_r_11_" aria-label="Add account">+</button>
  <button data-testid="go-btn">Go</button>
  <input name="zip" placeholder="Zip">
  <label>Nickname <input></label>
  <button>Submit order</button>
  <span>Just text</span>
  <p>Same</p><p>Same</p>
</form>
"""

SHADOW_DUPLICATES = """
<my-card></my-card><my-card></my-card>
<script>
customElements.define('my-card', class extends HTMLElement {
  constructor() { super(); this.attachShadow({mode: 'open'}).innerHTML = '<div><p>Same</p><p>Same</p></div>'; }
});
</script>
"""

FIELDSETS = """
<form>
  <fieldset><legend>Billing address</legend><label>City <input name="b_city"></label><label>Zip <input name="b_zip"></label></fieldset>
  <fieldset><legend>Shipping address</legend><label>City <input name="s_city"></label><label>Zip <input name="s_zip"></label></fieldset>
</form>
"""

# Rows and cards whose controls are named only by the row they sit in.
ROWS = """
<h2>Chores</h2>
<ul id="todo">
  <li><input type="checkbox"> Water the plants <button>Delete</button></li>
  <li><input type="checkbox"> Walk the dog <button>Delete</button></li>
</ul>
<table>
  <tr><td>Savings account</td><td>1,200.00</td><td><a href="#s">Remove</a></td></tr>
  <tr><td>Current account</td><td>80.00</td><td><a href="#c">Remove</a></td></tr>
</table>
<div class="cards">
  <div class="card"><h3>Python</h3><span class="icon" onclick="1">x</span><button>Follow</button></div>
  <div class="card"><h3>Rust</h3><span class="icon" onclick="1">x</span><button>Follow</button></div>
</div>
"""
